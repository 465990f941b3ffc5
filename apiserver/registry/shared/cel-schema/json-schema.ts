/**
 * A CustomResourceDefinition's schema as clients write it (JSONSchemaProps), with its extensions under
 * the domain's prefix (`x-orch-list-type`, `x-kubernetes-list-type` for k8s.io), and its conversion to
 * the server's own Schema shape (api/schema.ts, extensions named `x-orch-…`).
 */
import type { Schema } from '../../../api/schema.js';

/** One node of a CRD schema, as sent. */
export type JsonSchemaProps = Record<string, unknown>;

/** The extensions a CRD schema may use, by their name after the prefix. */
export const SCHEMA_EXTENSIONS = [
  'embedded-resource',
  'int-or-string',
  'list-map-keys',
  'list-type',
  'map-type',
  'preserve-unknown-fields',
  'validations',
] as const;

export type SchemaExtension = (typeof SCHEMA_EXTENSIONS)[number];

/** The JSON Schema keywords JSONSchemaProps has. */
const KEYWORDS = new Set([
  'id',
  '$schema',
  '$ref',
  'description',
  'type',
  'format',
  'title',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'enum',
  'maxProperties',
  'minProperties',
  'required',
  'items',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'properties',
  'additionalProperties',
  'patternProperties',
  'dependencies',
  'additionalItems',
  'definitions',
  'externalDocs',
  'example',
  'nullable',
]);

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value of an extension on a node (`ext(s, 'list-type', 'x-orch-')`). */
export function ext(s: JsonSchemaProps, name: SchemaExtension, prefix: string): unknown {
  return s[`${prefix}${name}`];
}

/** The child schemas of a node, each with the path segment that reaches it (for walks). */
export function childSchemas(s: JsonSchemaProps): { key: string[]; schema: JsonSchemaProps }[] {
  const out: { key: string[]; schema: JsonSchemaProps }[] = [];
  if (isObject(s.properties)) {
    for (const [k, v] of Object.entries(s.properties)) if (isObject(v)) out.push({ key: ['properties', k], schema: v });
  }
  if (isObject(s.items)) out.push({ key: ['items'], schema: s.items });
  if (isObject(s.additionalProperties)) out.push({ key: ['additionalProperties'], schema: s.additionalProperties });
  for (const junction of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[junction];
    if (Array.isArray(list)) list.forEach((v, i) => isObject(v) && out.push({ key: [junction, String(i)], schema: v }));
  }
  if (isObject(s.not)) out.push({ key: ['not'], schema: s.not });
  return out;
}

/**
 * A CRD schema without what JSONSchemaProps does not have (Kubernetes' typed decoding drops unknown
 * keys): the JSON Schema keywords and the domain's extensions stay, in place.
 */
export function dropUnknownKeywords(s: JsonSchemaProps, prefix: string): void {
  for (const key of Object.keys(s)) {
    const known = KEYWORDS.has(key) || (key.startsWith(prefix) && SCHEMA_EXTENSIONS.some((e) => e === key.slice(prefix.length)));
    if (!known) delete s[key];
  }
  for (const { schema } of childSchemas(s)) dropUnknownKeywords(schema, prefix);
  if (isObject(s.properties)) {
    for (const [k, v] of Object.entries(s.properties)) if (!isObject(v)) delete s.properties[k];
  }
}

/** The server's Schema of a CRD schema: extensions renamed from the domain's prefix to `x-orch-`. */
export function toSchema(s: JsonSchemaProps, prefix: string): Schema {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(s)) {
    const name = key.startsWith(prefix) ? `x-orch-${key.slice(prefix.length)}` : key;
    if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toSchema(v as JsonSchemaProps, prefix)]));
    } else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && isObject(value)) {
      out[name] = toSchema(value, prefix);
    } else if ((key === 'allOf' || key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
      out[name] = value.map((v) => toSchema(v as JsonSchemaProps, prefix));
    } else out[name] = value;
  }
  return out as Schema;
}
