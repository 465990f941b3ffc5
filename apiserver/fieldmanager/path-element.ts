/**
 * One step of a field path, as structured-merge-diff names them: a struct field or map key, a list
 * item by its key fields (associative lists), by its value (sets), or by its index (atomic lists).
 * Each element carries its one canonical text, `id`: its FieldsV1 key (`f:name`, `k:{"port":80}`,
 * `v:"x"`, `i:0`), which identifies it in field sets.
 */

import { messageOf } from '../api/thrown.js';

export type PathElement =
  | { readonly kind: 'field'; readonly id: string; readonly name: string }
  | { readonly kind: 'key'; readonly id: string; readonly fields: readonly (readonly [string, unknown])[] }
  | { readonly kind: 'value'; readonly id: string; readonly value: unknown }
  | { readonly kind: 'index'; readonly id: string; readonly index: number };

export type Path = readonly PathElement[];

type Entry = readonly [string, unknown];

/** Entries by key, in code-unit order (as Go compares strings). */
const byKey = ([x]: Entry, [y]: Entry) => (x < y ? -1 : x > y ? 1 : 0);

/** JSON with object keys sorted, so equal values have one text. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v)
      .sort(byKey)
      .map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * Field elements made lately, by name (elements never change, so one serves every path): the walks
 * of every write name the same fields again. Dropped whole past the bound, as map keys are the
 * clients' own.
 */
const FIELD_ELEMENTS_CACHED = 10_000;
let fieldElements = new Map<string, PathElement>();

export function fieldElement(name: string): PathElement {
  let pe = fieldElements.get(name);
  if (!pe) {
    if (fieldElements.size >= FIELD_ELEMENTS_CACHED) fieldElements = new Map();
    pe = { kind: 'field', id: `f:${name}`, name };
    fieldElements.set(name, pe);
  }
  return pe;
}

export const indexElement = (index: number): PathElement => ({ kind: 'index', id: `i:${index}`, index });

export const valueElement = (value: unknown): PathElement => ({ kind: 'value', id: `v:${canonicalJson(value)}`, value });

/** A key element; its fields are sorted by name, as the FieldsV1 encoding requires. */
export function keyElement(fields: Entry[]): PathElement {
  const sorted = [...fields].sort(byKey);
  return { kind: 'key', id: `k:{${sorted.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`, fields: sorted };
}

/** Thrown for a FieldsV1 key that does not parse. */
export class PathElementError extends Error {}

/** The element of a FieldsV1 key; undefined for a prefix this version does not know (ignored, as Kubernetes does). */
export function deserializeElement(key: string): PathElement | undefined {
  // The common case first, keeping the key as the element's text.
  if (key.startsWith('f:')) return { kind: 'field', id: key, name: key.slice(2) };
  const prefix = key.slice(0, 2);
  const rest = key.slice(2);
  if (prefix === 'f:') return fieldElement(rest);
  if (prefix === 'i:') {
    if (!/^-?\d+$/.test(rest)) throw new PathElementError(`invalid index in ${JSON.stringify(key)}`);
    return indexElement(Number(rest));
  }
  if (prefix !== 'k:' && prefix !== 'v:') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(rest);
  } catch (err) {
    throw new PathElementError(`${prefix === 'k:' ? 'key' : 'value'} in ${JSON.stringify(key)}: ${messageOf(err)}`);
  }
  if (prefix === 'v:') return valueElement(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new PathElementError(`key in ${JSON.stringify(key)} is not an object`);
  return keyElement(Object.entries(value));
}

const KIND_ORDER = { field: 0, key: 1, value: 2, index: 3 } as const;

function typeRank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null && typeof v === 'object') return 4;
  return 5;
}

/** structured-merge-diff's value order: numbers < strings < booleans < lists < maps < null. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  // Same rank, so both are of one type: each check below narrows both or neither.
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareValues(a[i], b[i]);
      if (c) return c;
    }
    return a.length - b.length;
  }
  if (a !== null && typeof a === 'object' && b !== null && typeof b === 'object') {
    const ea: Entry[] = Object.entries(a).sort(byKey);
    const eb: Entry[] = Object.entries(b).sort(byKey);
    for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
      if (ea[i][0] !== eb[i][0]) return ea[i][0] < eb[i][0] ? -1 : 1;
      const c = compareValues(ea[i][1], eb[i][1]);
      if (c) return c;
    }
    return ea.length - eb.length;
  }
  return 0;
}

/** The order of elements in a set: fields, then keys, values, indexes; each by its content. */
export function compareElements(a: PathElement, b: PathElement): number {
  if (a.kind === 'field' && b.kind === 'field') return a.name === b.name ? 0 : a.name < b.name ? -1 : 1;
  if (a.kind === 'key' && b.kind === 'key') {
    for (let i = 0; ; i++) {
      if (i >= a.fields.length || i >= b.fields.length) return a.fields.length - b.fields.length;
      if (a.fields[i][0] !== b.fields[i][0]) return a.fields[i][0] < b.fields[i][0] ? -1 : 1;
      const c = compareValues(a.fields[i][1], b.fields[i][1]);
      if (c) return c;
    }
  }
  if (a.kind === 'value' && b.kind === 'value') return compareValues(a.value, b.value);
  if (a.kind === 'index' && b.kind === 'index') return a.index - b.index;
  return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
}

/** A value as structured-merge-diff prints it in paths: strings quoted, maps as {k=v;…}. */
function valueString(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(valueString).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}=${valueString(x)}`)
      .join(';')}}`;
  }
  return String(v);
}

/** A path as Kubernetes prints it in conflicts: `.spec.ports[port=80,protocol="TCP"].name`. */
export function pathString(path: Path): string {
  return path
    .map((pe) => {
      switch (pe.kind) {
        case 'field':
          return `.${pe.name}`;
        case 'key':
          return `[${pe.fields.map(([k, v]) => `${k}=${valueString(v)}`).join(',')}]`;
        case 'value':
          return `[=${valueString(pe.value)}]`;
        case 'index':
          return `[${pe.index}]`;
      }
    })
    .join('');
}
