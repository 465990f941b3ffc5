/** Label and field selectors of a list or watch, parsed once and applied per object. */
import type { ApiObject } from '../api/object.js';
import type { ResourceDef } from '../api/resource.js';
import * as status from '../api/status.js';
import { parseLabelSelector } from '../runtime/selectors/label-selector.js';
import { parseFieldSelector, validateFieldSelector, exactName } from '../runtime/selectors/field-selector.js';

export interface Selection {
  /** True when nothing is filtered out. */
  everything: boolean;
  /** When the field selector names exactly one object (metadata.name=x). */
  name?: string;
  matches(obj: ApiObject): boolean;
}

function fieldsOf(def: ResourceDef, obj: ApiObject): Record<string, string> {
  const fields: Record<string, string> = { 'metadata.name': obj.metadata.name ?? '' };
  if (def.namespaced) fields['metadata.namespace'] = obj.metadata.namespace ?? '';
  for (const [name, get] of Object.entries(def.selectableFields ?? {})) fields[name] = get(obj) ?? '';
  return fields;
}

export function newSelection(def: ResourceDef, labelSelector = '', fieldSelector = ''): Selection {
  let labels, fields;
  try {
    labels = parseLabelSelector(labelSelector);
    fields = parseFieldSelector(fieldSelector);
  } catch (err) {
    throw status.badRequest(err instanceof Error ? err.message : String(err));
  }
  const supported = ['metadata.name', ...(def.namespaced ? ['metadata.namespace'] : []), ...Object.keys(def.selectableFields ?? {})];
  try {
    validateFieldSelector(fields, supported);
  } catch (err) {
    throw status.badRequest(err instanceof Error ? err.message : String(err));
  }
  const everything = labels.isEverything() && fields.isEverything();
  return {
    everything,
    name: exactName(fields),
    matches: everything ? () => true : (obj) => labels.matches(obj.metadata.labels ?? {}) && fields.matches(fieldsOf(def, obj)),
  };
}
