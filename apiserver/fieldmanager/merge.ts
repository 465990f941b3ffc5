/**
 * Merges an applied configuration into the live object (structured-merge-diff's TypedValue.Merge):
 * the configuration's leaves win; granular maps merge key by key; associative lists merge item by
 * item, keeping the live order of items the configuration does not mention and the configuration's
 * order for the rest. A null granular map or list in the configuration has no opinion on its items.
 * Repeated items in the configuration are a TypedValueError.
 */
import type { Schema } from '../api/schema.js';
import { granularAtom, isEmptyValue, isJsonMap, type JsonMap } from './granular.js';
import { indexList, TypedValueError, type TypedIssue } from './list-items.js';
import { fieldElement, type PathElement } from './path-element.js';
import type { ListAtom, TypeResolver } from './typed-schema.js';
import { fieldSchema } from './typed-schema.js';

/** The merged value (sharing unchanged parts with its inputs). */
export function merge(live: unknown, config: unknown, schema: Schema | undefined, types: TypeResolver): unknown {
  const issues: TypedIssue[] = [];
  const out = walk([], live, config, schema, types, issues);
  if (issues.length) throw new TypedValueError(issues);
  return out;
}

function walk(
  path: PathElement[],
  lhs: unknown,
  rhs: unknown,
  schema: Schema | undefined,
  types: TypeResolver,
  issues: TypedIssue[],
): unknown {
  if (rhs === undefined) return lhs;
  const atom = granularAtom(types, schema, lhs, rhs);
  if (!atom || (isEmptyValue(lhs) && isEmptyValue(rhs))) return rhs;
  if (atom.kind === 'list') return mergeLists(path, atom, lhs, rhs, types, issues);
  const lm = isJsonMap(lhs) ? lhs : {};
  const rm = isJsonMap(rhs) ? rhs : {};
  const out: JsonMap = {};
  const child = (key: string) => {
    path.push(fieldElement(key));
    out[key] = walk(path, Object.hasOwn(lm, key) ? lm[key] : undefined, rm[key], fieldSchema(atom, key), types, issues);
    path.pop();
  };
  for (const key of Object.keys(lm)) {
    if (Object.hasOwn(rm, key)) child(key);
    else out[key] = lm[key];
  }
  for (const key of Object.keys(rm)) if (!Object.hasOwn(lm, key)) child(key);
  return out;
}

/**
 * Items of both lists in one list: live items the configuration lacks stay where they were, the
 * configuration's items (merged with their live counterparts) come in the configuration's order.
 */
function mergeLists(path: PathElement[], atom: ListAtom, lhs: unknown, rhs: unknown, types: TypeResolver, issues: TypedIssue[]): unknown[] {
  const l = indexList(atom, lhs, path, true, issues);
  const r = indexList(atom, rhs, path, false, issues);
  const item = (pe: PathElement) => {
    path.push(pe);
    const v = walk(path, l.items.get(pe.id), r.items.get(pe.id), atom.element, types, issues);
    path.pop();
    return v;
  };
  const shared = r.order.filter((pe) => l.items.has(pe.id));
  let nextShared = 0;
  const merged = new Set<string>();
  const out: unknown[] = [];
  for (let li = 0, ri = 0; li < l.order.length || ri < r.order.length; ) {
    if (li < l.order.length && ri < r.order.length) {
      const pe = l.order[li];
      if (pe.id === r.order[ri].id) {
        merged.add(pe.id);
        out.push(item(pe));
        li++;
        ri++;
        nextShared++;
        continue;
      }
      // A shared item, but not the one the configuration's order wants next: it comes later.
      if (r.items.has(pe.id) && nextShared < shared.length && shared[nextShared].id !== pe.id) {
        li++;
        continue;
      }
    }
    if (li < l.order.length) {
      const pe = l.order[li];
      if (!r.items.has(pe.id)) {
        out.push(l.items.get(pe.id));
        li++;
        continue;
      }
      if (merged.has(pe.id)) {
        li++;
        continue;
      }
    }
    if (ri < r.order.length) {
      const pe = r.order[ri];
      merged.add(pe.id);
      out.push(item(pe));
      ri++;
      if (nextShared < shared.length && shared[nextShared].id === pe.id) nextShared++;
    }
  }
  return out;
}
