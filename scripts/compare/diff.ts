/**
 * The differential checker's differ: the answers of orch and of the reference to one step, compared
 * as Kubernetes clients see them. For a Status: code, reason, status and details (causes included,
 * their messages too) — the top-level message is wording and is not compared. For anything else:
 * the normalised body, field by field. For a watch: the event types in order and each event's
 * normalised object. Warning headers are compared as sets of texts.
 */
import { normalise, normaliseWarnings } from './normalise.js';

/** What one server answered to one step. */
export interface Answer {
  status: number;
  body: unknown;
  warnings?: string | string[];
  /** A watch's events (bookmarks left out). */
  events?: { type: string; object: unknown }[];
}

/** One difference: where, and the two values. */
export interface Difference {
  /** `status`, `warnings`, `body.<path>`, `events.<i>.<path>`. */
  path: string;
  orch: unknown;
  reference: unknown;
}

export function diffAnswers(orch: Answer, reference: Answer): Difference[] {
  const out: Difference[] = [];
  if (orch.status !== reference.status) out.push({ path: 'status', orch: orch.status, reference: reference.status });
  const ow = normaliseWarnings(orch.warnings);
  const rw = normaliseWarnings(reference.warnings);
  if (JSON.stringify(ow) !== JSON.stringify(rw)) out.push({ path: 'warnings', orch: ow, reference: rw });
  diffValues(comparable(orch.body), comparable(reference.body), 'body', out);
  if (orch.events || reference.events) {
    const oe = initialStateSorted(orch.events ?? []);
    const re = initialStateSorted(reference.events ?? []);
    const types = (es: { type: string }[]) => es.map((e) => e.type).join(',');
    if (types(oe) !== types(re)) out.push({ path: 'events', orch: types(oe), reference: types(re) });
    else oe.forEach((e, i) => diffValues(comparable(e.object), comparable(re[i]!.object), `events.${i}`, out));
  }
  return out;
}

/**
 * The ADDED events a watch starts with (the initial state) come in no defined order (Kubernetes'
 * watch cache sends them as its store iterates): they are compared sorted by namespace and name.
 */
export function initialStateSorted<E extends { type: string; object: unknown }>(events: E[]): E[] {
  let n = 0;
  while (n < events.length && events[n]!.type === 'ADDED') n++;
  const key = (e: E) => {
    const m = (e.object as { metadata?: { namespace?: string; name?: string } } | null)?.metadata;
    return `${m?.namespace ?? ''}/${m?.name ?? ''}`;
  };
  const head = events.slice(0, n).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return [...head, ...events.slice(n)];
}

/** The part of an answer that is compared: a Status without its message, anything else normalised. */
export function comparable(body: unknown): unknown {
  const b = normalise(body);
  if (b && typeof b === 'object' && !Array.isArray(b) && (b as { kind?: unknown }).kind === 'Status') {
    const { message: _message, metadata: _metadata, ...rest } = b as Record<string, unknown>;
    return rest;
  }
  return b;
}

/** Appends the leaf differences between a and b under `path`. */
export function diffValues(a: unknown, b: unknown, path: string, out: Difference[]): void {
  if (a === b) return;
  const aObj = a !== null && typeof a === 'object';
  const bObj = b !== null && typeof b === 'object';
  if (!aObj || !bObj || Array.isArray(a) !== Array.isArray(b)) {
    out.push({ path, orch: a, reference: b });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length !== b.length) {
    out.push({ path, orch: a, reference: b });
    return;
  }
  const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
  for (const k of [...keys].sort()) diffValues((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, out);
}
