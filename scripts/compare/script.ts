/**
 * The differential checker's request scripts: YAML data under scripts/compare/scripts/, each a named
 * list of HTTP steps replayed in order against orch and the reference kube-apiserver. A step may
 * refer to an earlier step's answer on the same server with `{{step.dot.path}}` (in its path or
 * body), so resourceVersions, continue tokens and generated names line up per server. A `kinds:`
 * block expands into the same create/get/list/update/patch/apply/watch/delete sequence per kind.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** One HTTP request of a script. */
export interface Step {
  /** Names the step in the report and for `{{id…}}` references; defaults to its index. */
  id: string;
  method: string;
  path: string;
  body?: unknown;
  /** Content-Type of the body; JSON by default. */
  contentType?: string;
  headers?: Record<string, string>;
  /** A watch: collect this many events (bookmarks aside), or what arrives within timeoutMs. */
  watch?: { events: number; timeoutMs?: number };
  /** Wait this long before the request (a watch cache catching up, an asynchronous controller). */
  delayMs?: number;
}

export interface Script {
  name: string;
  steps: Step[];
}

/** A kind in a `kinds:` block: its collection path and a valid object to create. */
interface KindCase {
  /** Collection path, `{{ns}}` standing for the script's namespace. */
  path: string;
  object: Record<string, unknown>;
  /** A merge patch that makes the object invalid (checked on create). */
  invalid?: Record<string, unknown>;
  /** A merge patch applied by the PATCH step; defaults to a label. */
  patch?: Record<string, unknown>;
  /** Skip the PUT of the read object (kinds that forbid updates). */
  noUpdate?: boolean;
}

interface RawScript {
  name: string;
  namespace?: string;
  steps?: Partial<Step>[];
  kinds?: KindCase[];
}

/** Reads every *.yaml script of `dir`, in file-name order. */
export function loadScripts(dir: string): Script[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => expandScript(parse(readFileSync(join(dir, f), 'utf8')) as RawScript, f));
}

/** Turns the YAML form into steps: ids and methods filled in, `kinds:` expanded. */
export function expandScript(raw: RawScript, source = raw.name): Script {
  if (!raw?.name) throw new Error(`${source}: a script needs a name`);
  const steps: Step[] = [];
  if (raw.namespace) steps.push(...namespaceSteps(raw.namespace));
  (raw.steps ?? []).forEach((s, i) => {
    if (!s.path) throw new Error(`${source}: step ${s.id ?? i} has no path`);
    steps.push({ ...s, id: s.id ?? `step-${i}`, method: (s.method ?? 'GET').toUpperCase(), path: s.path });
  });
  for (const k of raw.kinds ?? []) steps.push(...kindSteps(k, raw.namespace ?? 'default'));
  const ids = new Set<string>();
  for (const s of steps) {
    if (ids.has(s.id)) throw new Error(`${source}: two steps are named ${s.id}`);
    ids.add(s.id);
  }
  return { name: raw.name, steps };
}

function namespaceSteps(ns: string): Step[] {
  return [
    { id: 'namespace', method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } },
    {
      id: 'default-serviceaccount',
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/serviceaccounts`,
      body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } },
    },
  ];
}

/** The one sequence every kind goes through. */
function kindSteps(k: KindCase, ns: string): Step[] {
  const path = k.path.replaceAll('{{ns}}', ns);
  const name = (k.object.metadata as { name?: string } | undefined)?.name;
  if (!name) throw new Error(`kind case ${path}: the object needs metadata.name`);
  const id = `${(k.object.kind as string).toLowerCase()}`;
  const item = `${path}/${name}`;
  const steps: Step[] = [];
  if (k.invalid) steps.push({ id: `${id}-create-invalid`, method: 'POST', path, body: mergePatch(structuredClone(k.object), k.invalid) });
  steps.push(
    { id: `${id}-create`, method: 'POST', path, body: k.object },
    { id: `${id}-create-again`, method: 'POST', path, body: k.object },
    { id: `${id}-get`, method: 'GET', path: item },
    { id: `${id}-list`, method: 'GET', path: `${path}?fieldSelector=metadata.name%3D${name}` },
  );
  if (!k.noUpdate) steps.push({ id: `${id}-update`, method: 'PUT', path: item, body: `{{${id}-get}}` });
  steps.push(
    {
      id: `${id}-patch`,
      method: 'PATCH',
      path: item,
      contentType: 'application/merge-patch+json',
      body: k.patch ?? { metadata: { labels: { compared: 'yes' } } },
    },
    {
      id: `${id}-apply`,
      method: 'PATCH',
      path: `${item}?fieldManager=compare&force=true`,
      contentType: 'application/apply-patch+yaml',
      body: { apiVersion: k.object.apiVersion, kind: k.object.kind, metadata: { name, annotations: { applied: 'yes' } } },
    },
    {
      id: `${id}-watch`,
      method: 'GET',
      path: `${path}?watch=1&resourceVersion={{${id}-create.metadata.resourceVersion}}`,
      watch: { events: 3 },
    },
    { id: `${id}-delete`, method: 'DELETE', path: item },
    { id: `${id}-get-deleted`, method: 'GET', path: item },
    { id: `${id}-delete-again`, method: 'DELETE', path: item },
  );
  return steps;
}

/** RFC 7386 merge patch, enough for the `invalid:` overlays. */
function mergePatch(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete target[k];
    else if (typeof v === 'object' && !Array.isArray(v) && typeof target[k] === 'object' && target[k] !== null && !Array.isArray(target[k]))
      target[k] = mergePatch(target[k] as Record<string, unknown>, v as Record<string, unknown>);
    else target[k] = v;
  }
  return target;
}

/** A value at a dot path (`items.0.metadata.name`), or undefined. */
export function lookup(value: unknown, path: string[]): unknown {
  let v = value;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[p];
  }
  return v;
}

/**
 * Replaces `{{id.path}}` references by the answers of earlier steps. A string that is exactly one
 * reference becomes the referred value itself (an object to PUT back); inside a longer string it is
 * spliced in, URL-encoded when `encode` is set (paths).
 */
export function resolveRefs(value: unknown, answers: Map<string, unknown>, encode = false): unknown {
  if (typeof value === 'string') {
    const whole = /^\{\{([^}]+)\}\}$/.exec(value);
    if (whole) return structuredClone(refValue(whole[1]!, answers));
    return value.replace(/\{\{([^}]+)\}\}/g, (_, ref: string) => {
      const v = refValue(ref, answers);
      const s = typeof v === 'string' ? v : JSON.stringify(v);
      return encode ? encodeURIComponent(s) : s;
    });
  }
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, answers, encode));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, answers, encode)]));
  return value;
}

function refValue(ref: string, answers: Map<string, unknown>): unknown {
  const [id, ...path] = ref.split('.');
  if (!answers.has(id!)) throw new Error(`{{${ref}}}: no earlier step ${id}`);
  return lookup(answers.get(id!), path) ?? '';
}
