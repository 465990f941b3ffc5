/**
 * The one question every walker over typed values asks: is this value (or pair of values) a leaf,
 * owned as a whole — a scalar, an atomic list or map, or values that do not fit their type — or a
 * granular list or map whose items are walked one by one?
 */
import type { Schema } from '../api/schema.js';
import type { ListAtom, MapAtom, TypeResolver } from './typed-schema.js';
import { concreteAtom } from './typed-schema.js';

export type JsonMap = Record<string, unknown>;

export function isJsonMap(v: unknown): v is JsonMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Absent, null, [] or {}. */
export function isEmptyValue(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isJsonMap(v) && Object.keys(v).length === 0;
}

function fits(atom: ListAtom | MapAtom, v: unknown): boolean {
  if (v === undefined || v === null) return true;
  return atom.kind === 'list' ? Array.isArray(v) : isJsonMap(v);
}

/**
 * The granular atom the values (absent = undefined; one or two of them) are walked with, or
 * undefined when they form a leaf. Values of a deduced type are deduced one by one; when they
 * disagree they are a leaf.
 */
export function granularAtom(types: TypeResolver, schema: Schema | undefined, a: unknown, b?: unknown): ListAtom | MapAtom | undefined {
  const atom = types.atom(schema);
  let found: ListAtom | MapAtom | undefined;
  if (a !== undefined && a !== null) {
    const c = concreteAtom(atom, a);
    if (c.kind === 'scalar' || c.atomic) return undefined;
    found = c;
  }
  if (b !== undefined && b !== null) {
    const c = concreteAtom(atom, b);
    if (c.kind === 'scalar' || c.atomic || (found && found !== c)) return undefined;
    found = c;
  }
  if (!found) {
    const c = concreteAtom(atom, undefined);
    if (c.kind === 'scalar' || c.atomic) return undefined;
    found = c;
  }
  return fits(found, a) && fits(found, b) ? found : undefined;
}
