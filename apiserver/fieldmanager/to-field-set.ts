/**
 * The fields a value sets (structured-merge-diff's ToFieldSet), which is what an applier owns: every
 * leaf (scalar, atomic list or map), every list item and map entry, and struct fields only when they
 * are null or an empty object (a struct field with content is owned through its content).
 */
import type { Schema } from '../api/schema.js';
import { FieldSet } from './field-set.js';
import { granularAtom, isEmptyValue, isJsonMap } from './granular.js';
import { indexList, TypedValueError, type TypedIssue } from './list-items.js';
import { fieldElement, type PathElement } from './path-element.js';
import type { TypeResolver } from './typed-schema.js';
import { fieldSchema, isDeclaredField } from './typed-schema.js';

/**
 * The field set of a value of the given schema. Lists whose items cannot be named (or, unless
 * allowed, repeat an element) are a TypedValueError.
 */
export function toFieldSet(value: unknown, schema: Schema | undefined, types: TypeResolver, allowDuplicates = true): FieldSet {
  const set = new FieldSet();
  const issues: TypedIssue[] = [];
  fill(set, [], value, schema, types, allowDuplicates, issues);
  if (issues.length) throw new TypedValueError(issues);
  return set;
}

/** Adds the paths below `value` to `set` (which is relative to value). */
function fill(
  set: FieldSet,
  path: PathElement[],
  value: unknown,
  schema: Schema | undefined,
  types: TypeResolver,
  allowDup: boolean,
  issues: TypedIssue[],
): void {
  const atom = granularAtom(types, schema, value);
  if (!atom) return;
  if (atom.kind === 'list') {
    const { order, items } = indexList(atom, value, path, allowDup, issues);
    for (const pe of order) {
      set.addMember(pe);
      const item = items.get(pe.id);
      if (!granularAtom(types, atom.element, item)) continue;
      path.push(pe);
      fill(set.descend(pe), path, item, atom.element, types, allowDup, issues);
      path.pop();
    }
    return;
  }
  if (!isJsonMap(value)) return;
  for (const [key, v] of Object.entries(value)) {
    const pe = fieldElement(key);
    const childSchema = fieldSchema(atom, key);
    if (!granularAtom(types, childSchema, v)) {
      set.addMember(pe);
      continue;
    }
    if (!isDeclaredField(atom, key) || isEmptyMap(v)) set.addMember(pe);
    path.push(pe);
    fill(set.descend(pe), path, v, childSchema, types, allowDup, issues);
    path.pop();
  }
}

function isEmptyMap(v: unknown): boolean {
  return v === null || (isJsonMap(v) && isEmptyValue(v));
}
