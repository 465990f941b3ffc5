/**
 * Removing the paths of a field set from a value (structured-merge-diff's TypedValue.RemoveItems),
 * which is how apply drops what an applier no longer sets; and EnsureNamedFieldsAreMembers, which
 * makes a set also name the struct fields its paths go through, so removing it removes them too.
 */
import type { Schema } from '../api/schema.js';
import { FieldSet } from './field-set.js';
import { isJsonMap, type JsonMap } from './granular.js';
import { listItemElement } from './list-items.js';
import { fieldElement } from './path-element.js';
import type { TypeResolver } from './typed-schema.js';
import { concreteAtom, fieldSchema, isDeclaredField } from './typed-schema.js';

/**
 * The value without the set's paths. A granular list left without items becomes absent (undefined),
 * as does an atomic list or map the set reaches into; a map entry whose value became absent is kept as
 * null (Kubernetes' typed objects then drop it), so a struct emptied this way stays an empty struct.
 */
export function removeItems(value: unknown, set: FieldSet, schema: Schema | undefined, types: TypeResolver): unknown {
  const atom = concreteAtom(types.atom(schema), value);
  if (atom.kind === 'scalar') return value;
  if (atom.kind === 'list') {
    if (!Array.isArray(value) || value.length === 0 || atom.atomic) return undefined;
    const out: unknown[] = [];
    value.forEach((item, i) => {
      const pe = listItemElement(atom, item, i);
      if (typeof pe === 'string') {
        out.push(item);
        return;
      }
      if (set.hasMember(pe)) return;
      const sub = set.withPrefix(pe);
      out.push(sub.isEmpty() ? item : removeItems(item, sub, atom.element, types));
    });
    return out.length ? out : undefined;
  }
  if (!isJsonMap(value) || Object.keys(value).length === 0 || atom.atomic) return undefined;
  const out: JsonMap = {};
  for (const [key, v] of Object.entries(value)) {
    const pe = fieldElement(key);
    if (set.hasMember(pe)) continue;
    const sub = set.withPrefix(pe);
    out[key] = sub.isEmpty() ? v : (removeItems(v, sub, fieldSchema(atom, key), types) ?? null);
  }
  return Object.keys(out).length ? out : undefined;
}

/** The set plus, at every level, the declared struct fields its paths pass through. */
export function ensureNamedFieldsAreMembers(set: FieldSet, schema: Schema | undefined, types: TypeResolver): FieldSet {
  const atom = types.atom(schema);
  const out = new FieldSet();
  for (const pe of set.sortedMembers()) out.addMember(pe);
  for (const { pe, set: child } of set.sortedChildren()) {
    let childSchema: Schema | undefined;
    if (pe.kind === 'field' && atom.kind === 'map') {
      if (isDeclaredField(atom, pe.name)) out.addMember(pe);
      childSchema = fieldSchema(atom, pe.name);
    } else if (pe.kind === 'key' && atom.kind === 'list') childSchema = atom.element;
    out.setChild(pe, ensureNamedFieldsAreMembers(child, childSchema, types));
  }
  return out;
}
