/**
 * The FieldsV1 encoding of a field set, as metadata.managedFields carries it: a JSON trie whose keys
 * are path elements (`f:`, `k:`, `v:`, `i:`) in set order, `{}` for a member, and `".": {}` first inside
 * an element that is both a member and has owned paths below it.
 */
import { FieldSet } from './field-set.js';
import { compareElements, deserializeElement, PathElementError } from './path-element.js';

export type FieldsV1 = { [key: string]: FieldsV1 };

/** The FieldsV1 object of a set (written into `out`, whose members come first). */
export function setToFields(set: FieldSet, out: FieldsV1 = {}): FieldsV1 {
  const members = set.sortedMembers();
  const children = set.sortedChildren();
  let mi = 0;
  let ci = 0;
  // Members and children interleave in set order; an element in both gets its "." inside.
  while (mi < members.length || ci < children.length) {
    const m = members[mi];
    const c = children[ci];
    const order = !c ? -1 : !m ? 1 : compareElements(m, c.pe);
    if (order < 0) {
      out[m.id] = {};
      mi++;
    } else if (order > 0) {
      out[c.pe.id] = setToFields(c.set);
      ci++;
    } else {
      out[c.pe.id] = setToFields(c.set, { '.': {} });
      mi++;
      ci++;
    }
  }
  return out;
}

/** Thrown for a FieldsV1 value that is not a valid trie. */
export class FieldsV1Error extends Error {}

/** The set a FieldsV1 object encodes; unknown element kinds are skipped, as Kubernetes does. */
export function fieldsToSet(fields: unknown): FieldSet {
  const set = new FieldSet();
  if (fields === undefined || fields === null) return set;
  readInto(set, fields);
  return set;
}

function readInto(set: FieldSet, fields: unknown): void {
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new FieldsV1Error('FieldsV1 must be a JSON object');
  const entries = fields as Record<string, unknown>;
  for (const key of Object.keys(entries)) {
    if (key === '.') continue;
    const value = entries[key];
    let pe;
    try {
      pe = deserializeElement(key);
    } catch (err) {
      if (err instanceof PathElementError) throw new FieldsV1Error(`parsing key as path element: ${err.message}`);
      throw err;
    }
    if (!pe) continue;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new FieldsV1Error(`the value of ${JSON.stringify(key)} must be a JSON object`);
    const size = Object.keys(value).length;
    const dot = Object.hasOwn(value, '.');
    if (size === 0 || dot) set.addMember(pe);
    if (size > (dot ? 1 : 0)) readInto(set.descend(pe), value);
  }
}
