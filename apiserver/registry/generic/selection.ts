/** Label and field selectors of a list or watch, parsed once and applied per object. */
import type { ApiObject } from '../../api/object.js';
import type { ResourceDef } from '../../api/resource.js';
import * as status from '../../api/status.js';
import { METADATA_FIELDS } from '../../api/strategy.js';
import { parseLabelSelector } from '../../runtime/selectors/label-selector.js';
import { exactName, parseFieldSelector, renameFields, validateFieldSelector } from '../../runtime/selectors/field-selector.js';

export interface Selection {
  /** True when nothing is filtered out. */
  everything: boolean;
  /** When the field selector names exactly one object (metadata.name=x). */
  name?: string;
  matches(obj: ApiObject): boolean;
}

/** DefaultMetaV1FieldSelectorConversion's refusal, for kinds without a conversion of their own. */
const unknownToDefault = (label: string) =>
  `${JSON.stringify(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`;

/** The labels a kind's field selectors may name, with their readers (its conversion, or the default one). */
export function fieldLabelsOf(def: ResourceDef): Readonly<Record<string, (obj: ApiObject) => string | undefined>> {
  return def.selectableFields ?? METADATA_FIELDS;
}

function fieldsOf(labels: Readonly<Record<string, (obj: ApiObject) => string | undefined>>, obj: ApiObject): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, get] of Object.entries(labels)) fields[name] = get(obj) ?? '';
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
  const fieldLabels = fieldLabelsOf(def);
  const aliases = def.fieldLabelAliases ?? {};
  try {
    validateFieldSelector(
      fields,
      [...Object.keys(fieldLabels), ...Object.keys(aliases)],
      def.selectableFields ? def.unsupportedFieldLabel : unknownToDefault,
    );
  } catch (err) {
    throw status.badRequest(err instanceof Error ? err.message : String(err));
  }
  if (Object.keys(aliases).length) fields = renameFields(fields, (label) => (Object.hasOwn(aliases, label) ? aliases[label] : label));
  const everything = labels.isEverything() && fields.isEverything();
  return {
    everything,
    name: exactName(fields),
    matches: everything ? () => true : (obj) => labels.matches(obj.metadata.labels ?? {}) && fields.matches(fieldsOf(fieldLabels, obj)),
  };
}
