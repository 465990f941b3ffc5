import type { ObjectMeta } from './object-meta.js';
import type { Status } from './status.js';

/**
 * What every object of a kind has, the generated kinds (api/generated/types.ts) included: TypeMeta and
 * ObjectMeta. Code that works on any kind (caches, keys, owner references) takes this.
 */
export interface KindObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

/** Any API object as decoded JSON: TypeMeta + ObjectMeta + the kind's own fields, not yet typed. */
export interface ApiObject extends KindObject {
  [field: string]: unknown;
}

/**
 * A typed kind as the untyped object stores, codecs and admission pass around: every kind is a JSON
 * object with TypeMeta and ObjectMeta, so nothing is lost.
 */
export function asApiObject(obj: KindObject): ApiObject {
  return obj as ApiObject;
}

/**
 * An untyped object as the kind `T`. A plain assignment is refused: a generated kind's `kind` is its
 * literal ('Pod'), an ApiObject's any string, so where an object becomes a kind is written down here.
 * Nothing is checked: the caller knows the kind from where the object came (its resource's store,
 * which validated it on write, or a decoder of that kind).
 */
export function asKind<T extends KindObject>(obj: ApiObject | KindObject): T {
  return obj as T;
}

/** A list object (ConfigMapList, …), of untyped objects or of one kind. */
export interface ApiList<T = ApiObject> {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** A watch event: an object (a BOOKMARK's carries only its resourceVersion), or the Status of an ERROR. */
export type WatchEvent =
  | { type: Exclude<WatchEventType, 'ERROR'>; object: ApiObject | Record<string, unknown> }
  | { type: 'ERROR'; object: Status | Record<string, unknown> };

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An array whose items are still to be checked (Array.isArray alone would make them `any`). */
export function isArray(v: unknown): v is readonly unknown[] {
  return Array.isArray(v);
}

/** Whether `v` is one of `values` (a config file's enum field, say), narrowing it to their type. */
export function isOneOf<T>(values: readonly T[], v: unknown): v is T {
  return values.some((value) => value === v);
}

/** "v1" for the core group, "group/version" otherwise. */
export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/**
 * A deep copy of a JSON value (objects, arrays, primitives; undefined members kept). A plain walk is
 * several times faster than structuredClone on API objects, and this runs several times per write.
 * A `__proto__` key (JSON.parse makes it an own property) is copied as data, never as a prototype.
 */
export function deepCopy<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = deepCopy(v[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    const value = deepCopy((v as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
  }
  return out as T;
}

/** Deep equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  // Both are objects and neither is an array (checked above), so these only narrow.
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const ao = a;
  const bo = b;
  // Members holding undefined count as absent (JSON drops them).
  let defined = 0;
  for (const k of Object.keys(ao)) {
    const v = ao[k];
    if (v === undefined) continue;
    if (!Object.hasOwn(bo, k) || !jsonEqual(v, bo[k])) return false;
    defined++;
  }
  for (const k of Object.keys(bo)) if (bo[k] !== undefined) defined--;
  return defined === 0;
}
