// Every read goes through the API with the user's bearer token, kept in this tab's sessionStorage
// (never a cookie: nothing a cross-site page can make the browser send).
const KEY = 'orch.token';

export const token = {
  get: () => sessionStorage.getItem(KEY) ?? '',
  set: (t) => sessionStorage.setItem(KEY, t),
  clear: () => sessionStorage.removeItem(KEY),
};

export class ApiError extends Error {
  constructor(code, message, reason) {
    // A message may quote the request (a 40,000-character selector): cut short for the page.
    const short = message.length > 300 ? `${message.slice(0, 300)}…` : message;
    // A refusal names what was refused; the Access page shows what the user may do instead.
    super(code === 403 ? `Access denied: ${short} (the Access page shows what you may do)` : short);
    this.code = code;
    this.reason = reason;
  }
}

function headers(extra) {
  const h = { Accept: 'application/json', ...extra };
  const t = token.get();
  if (t) h.Authorization = `Bearer ${t}`;
  return h;
}

/** Sent on window when the API answers 401: the token expired or was revoked while in use. */
export const UNAUTHORIZED_EVENT = 'orch-unauthorized';

/** The error of a failed answer: the Status' message when there is one. */
async function errorOf(res) {
  if (res.status === 401) dispatchEvent(new Event(UNAUTHORIZED_EVENT));
  const text = await res.text();
  try {
    const s = JSON.parse(text);
    if (s && s.kind === 'Status') return new ApiError(res.status, s.message || s.reason || res.statusText, s.reason);
  } catch {
    // not JSON: the text itself
  }
  return new ApiError(res.status, `${res.status} ${res.statusText}${text ? `: ${text.slice(0, 300)}` : ''}`);
}

export async function get(path, accept) {
  const res = await fetch(path, { headers: headers(accept ? { Accept: accept } : {}) });
  if (!res.ok) throw await errorOf(res);
  return res.json();
}

export async function text(path) {
  const res = await fetch(path, { headers: headers({ Accept: 'text/plain' }) });
  if (!res.ok) throw await errorOf(res);
  return res.text();
}

export async function post(path, body) {
  const res = await fetch(path, {
    method: 'POST',
    headers: headers({ 'Content-Type': 'application/json' }),
    body: JSON.stringify(body),
  });
  if (!res.ok) throw await errorOf(res);
  return res.json();
}

/**
 * A list, then a watch from its resourceVersion (the body read as a stream, one event a line);
 * onState gets the items by key after each change. Returns a stop function. A watch that ends is
 * resumed from the last revision seen; an expired one (410) lists again.
 */
export function listWatch(path, query, onState, onError) {
  const ctl = new AbortController();
  const items = new Map();
  const key = (o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
  const sep = path.includes('?') ? '&' : '?';
  const run = async () => {
    let rv = '';
    while (!ctl.signal.aborted) {
      try {
        if (!rv) {
          const list = await get(`${path}${sep}${query}`);
          items.clear();
          for (const o of list.items ?? []) items.set(key(o), o);
          rv = list.metadata?.resourceVersion ?? '';
          onState(items);
        }
        const res = await fetch(`${path}${sep}${query}&watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`, {
          headers: headers(),
          signal: ctl.signal,
        });
        if (!res.ok) throw await errorOf(res);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += value;
          let nl = buf.indexOf('\n');
          while (nl >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            nl = buf.indexOf('\n');
            if (!line.trim()) continue;
            const ev = JSON.parse(line);
            if (ev.type === 'ERROR') {
              rv = '';
              throw new ApiError(ev.object?.code ?? 500, ev.object?.message ?? 'watch error');
            }
            if (ev.object?.metadata?.resourceVersion) rv = ev.object.metadata.resourceVersion;
            if (ev.type === 'BOOKMARK') continue;
            if (ev.type === 'DELETED') items.delete(key(ev.object));
            else items.set(key(ev.object), ev.object);
            onState(items);
          }
        }
      } catch (err) {
        if (ctl.signal.aborted) return;
        if (err.code === 410) rv = '';
        else {
          onError?.(err);
          // A refused list (403, 400: a bad selector) will not heal by retrying fast.
          if (err.code && err.code < 500 && err.code !== 410) return;
          rv = '';
        }
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
  };
  run();
  return () => ctl.abort();
}

/**
 * The API domain the server runs with: orch serves Kubernetes' `*.k8s.io` groups as `*.orch.io` by
 * default (--api-domain), so the console reads it from discovery once, at sign-in.
 */
let suffix = 'k8s.io';
export async function learnDomain() {
  const list = await get('/apis');
  const authn = (list.groups ?? []).find((g) => g.name.startsWith('authentication.'));
  if (authn) suffix = authn.name.slice('authentication.'.length);
  return list;
}

/** The namespace of the system's own objects (the controller manager's leader Lease): kube-system, orch-system. */
export const systemNamespace = () => (suffix === 'k8s.io' ? 'kube-system' : `${suffix.split('.')[0]}-system`);

/** The prefix of well-known labels: orch.io (kubernetes.io with the k8s.io domain). */
export const labelPrefix = () => (suffix === 'k8s.io' ? 'kubernetes.io' : suffix);

/**
 * The label of the API servers' identity Leases in the system namespace (each replica keeps one):
 * apiserver.orch.io/identity=orch-apiserver, or Kubernetes' apiserver.kubernetes.io/identity=kube-apiserver.
 */
export function identitySelector() {
  return `apiserver.${labelPrefix()}/identity=${systemNamespace().replace(/-system$/, '')}-apiserver`;
}

/** A Kubernetes `<name>.k8s.io` group as this server names it. */
export const group = (name) => `${name}.${suffix}`;

/** The Accept header of the server-side printer columns. */
export const tableAccept = () => `application/json;as=Table;v=v1;g=${group('meta')}, application/json`;
