/**
 * What changed between two values of a schema (structured-merge-diff's TypedValue.Compare): leaves
 * added, modified or removed, plus the granular lists, maps and items that appeared or disappeared as
 * a whole. Two empty-or-absent containers compare as leaves, keeping the null / empty distinction.
 */
import type { Schema } from '../api/schema.js';
import { jsonEqual } from '../api/object.js';
import { FieldSet } from './field-set.js';
import { granularAtom, isEmptyValue, isJsonMap } from './granular.js';
import { indexList, TypedValueError, type TypedIssue } from './list-items.js';
import { fieldElement, type PathElement } from './path-element.js';
import type { TypeResolver } from './typed-schema.js';
import { fieldSchema } from './typed-schema.js';

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/** The comparison without the given fields (and anything below them). */
export function excludeFields(c: Comparison, fields: FieldSet | undefined): Comparison {
  if (!fields) return c;
  return {
    added: c.added.recursiveDifference(fields),
    modified: c.modified.recursiveDifference(fields),
    removed: c.removed.recursiveDifference(fields),
  };
}

/** Compares lhs (before) with rhs (after); both may hold repeated list items, which are skipped. */
export function compare(lhs: unknown, rhs: unknown, schema: Schema | undefined, types: TypeResolver): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  const issues: TypedIssue[] = [];
  walk(c, [], lhs, rhs, schema, types, issues);
  if (issues.length) throw new TypedValueError(issues);
  return c;
}

function walk(
  c: Comparison,
  path: PathElement[],
  lhs: unknown,
  rhs: unknown,
  schema: Schema | undefined,
  types: TypeResolver,
  issues: TypedIssue[],
): void {
  if (lhs === undefined && rhs === undefined) return;
  const atom = granularAtom(types, schema, lhs, rhs);
  if (!atom || (isEmptyValue(lhs) && isEmptyValue(rhs))) {
    if (lhs === undefined) c.added.insert(path);
    else if (rhs === undefined) c.removed.insert(path);
    else if (!jsonEqual(lhs, rhs)) c.modified.insert(path);
    return;
  }
  if (atom.kind === 'list') {
    const l = indexList(atom, lhs, path, true, issues);
    const r = indexList(atom, rhs, path, true, issues);
    for (const pe of l.order) {
      path.push(pe);
      walk(c, path, l.items.get(pe.id), r.items.get(pe.id), atom.element, types, issues);
      path.pop();
    }
    for (const pe of r.order) {
      if (l.items.has(pe.id)) continue;
      path.push(pe);
      walk(c, path, undefined, r.items.get(pe.id), atom.element, types, issues);
      path.pop();
    }
  } else {
    const lm = isJsonMap(lhs) ? lhs : {};
    const rm = isJsonMap(rhs) ? rhs : {};
    for (const key of Object.keys(lm)) {
      path.push(fieldElement(key));
      walk(c, path, lm[key], Object.hasOwn(rm, key) ? rm[key] : undefined, fieldSchema(atom, key), types, issues);
      path.pop();
    }
    for (const key of Object.keys(rm)) {
      if (Object.hasOwn(lm, key)) continue;
      path.push(fieldElement(key));
      walk(c, path, undefined, rm[key], fieldSchema(atom, key), types, issues);
      path.pop();
    }
  }
  if (lhs === undefined) c.added.insert(path);
  else if (rhs === undefined) c.removed.insert(path);
}
