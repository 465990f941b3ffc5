/**
 * Walks a decoded JSON body against its kind's schema, the way Kubernetes' typed decoding does:
 * values of the wrong type are errors (400), fields the schema does not know are removed and reported
 * (fieldValidation Ignore / Warn / Strict decides what the caller does with them), `null` object
 * fields are dropped like Go's zero values.
 */
import type { Definitions, Schema } from './schema.js';
import { resolveSchema, ownProperty } from './schema.js';

/** How a write treats fields its schema does not know (the fieldValidation query parameter). */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export interface SchemaCheckResult {
  /** Type errors, e.g. `.data.a: expected string, got number`. */
  errors: string[];
  /** Paths of removed unknown fields, e.g. `spec.foo`, `items[0].bar`. */
  unknownFields: string[];
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** Checks and prunes `value` in place. The root must be an object. */
export function checkAgainstSchema(value: Record<string, unknown>, schema: Schema, defs: Definitions): SchemaCheckResult {
  const result: SchemaCheckResult = { errors: [], unknownFields: [] };
  walkObject(value, resolveSchema(schema, defs), defs, '', result);
  return result;
}

/**
 * `keep`: inside a CRD's schema (JSONSchemaProps, which keeps fields it does not know): types are
 * checked, nothing is pruned and nulls stay (a `default: null` is a value there).
 */
function walkObject(obj: Record<string, unknown>, s: Schema, defs: Definitions, path: string, r: SchemaCheckResult, keep = false): void {
  if (s === defs[SCHEMA_PROPS_NAME]) keep = true;
  else if (s['x-orch-preserve-unknown-fields']) return;
  if (!s.properties && s.additionalProperties === undefined) return;
  for (const key of Object.keys(obj)) {
    const child = obj[key];
    const childPath = s.properties ? join(path, key) : `${path}[${key}]`;
    const childSchema = ownProperty(s.properties, key) ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    if (!childSchema) {
      if (keep || s.additionalProperties === true) continue;
      r.unknownFields.push(childPath);
      delete obj[key];
      continue;
    }
    if (child === null) {
      if (keep) continue;
      if (s.properties) delete obj[key];
      else r.errors.push(`${childPath}: expected ${resolveSchema(childSchema, defs).type ?? 'value'}, got null`);
      continue;
    }
    walkValue(child, childSchema, defs, childPath, r, keep);
    // A number given for a Quantity is kept as its string form, as Kubernetes decodes it.
    if (typeof child === 'number' && resolveSchema(childSchema, defs).format === 'quantity') obj[key] = String(child);
  }
}

const SCHEMA_PROPS_NAME = 'apiextensions.v1.JSONSchemaProps';
const SCHEMA_PROPS: Schema = { $ref: `#/definitions/${SCHEMA_PROPS_NAME}` };

/**
 * The CRD schema's union types, which the OpenAPI document leaves untyped (`{}`): a JSONSchemaProps
 * object, or a boolean / an array of JSONSchemaProps / an array of strings, as Go decodes them.
 * Untyped, a nested schema's `properties: []` was stored and then broke its protobuf encoding.
 */
const SCHEMA_UNIONS: Record<string, { other: 'boolean' | 'array'; item?: Schema }> = {
  '#/definitions/apiextensions.v1.JSONSchemaPropsOrBool': { other: 'boolean' },
  '#/definitions/apiextensions.v1.JSONSchemaPropsOrArray': { other: 'array', item: SCHEMA_PROPS },
  '#/definitions/apiextensions.v1.JSONSchemaPropsOrStringArray': { other: 'array', item: { type: 'string' } },
};

function walkUnion(v: unknown, union: (typeof SCHEMA_UNIONS)[string], defs: Definitions, path: string, r: SchemaCheckResult): void {
  const got = jsonType(v);
  if (got === 'object') walkValue(v, SCHEMA_PROPS, defs, path, r, true);
  else if (got === union.other && Array.isArray(v) && union.item)
    v.forEach((item, i) => walkValue(item, union.item!, defs, `${path}[${i}]`, r, true));
  else if (got !== union.other) r.errors.push(`${path}: expected object or ${union.other}, got ${got}`);
}

function walkValue(v: unknown, schema: Schema, defs: Definitions, path: string, r: SchemaCheckResult, keep = false): void {
  const union = typeof schema.$ref === 'string' ? SCHEMA_UNIONS[schema.$ref] : undefined;
  if (union) {
    walkUnion(v, union, defs, path, r);
    return;
  }
  const s = resolveSchema(schema, defs);
  const got = jsonType(v);
  if (s['x-orch-int-or-string']) {
    if (got !== 'string' && got !== 'integer') r.errors.push(`${path}: expected integer or string, got ${got}`);
    return;
  }
  switch (s.type) {
    case 'object':
      if (got !== 'object') r.errors.push(`${path}: expected object, got ${got}`);
      else walkObject(v as Record<string, unknown>, s, defs, path, r, keep);
      return;
    case 'array':
      if (got !== 'array') {
        r.errors.push(`${path}: expected array, got ${got}`);
        return;
      }
      if (s.items) {
        (v as unknown[]).forEach((item, i) => {
          if (item === null) r.errors.push(`${path}[${i}]: expected ${resolveSchema(s.items!, defs).type ?? 'value'}, got null`);
          else walkValue(item, s.items!, defs, `${path}[${i}]`, r, keep);
        });
      }
      return;
    case 'string':
      if (s.format === 'quantity' && (got === 'integer' || got === 'number')) return;
      if (got !== 'string') r.errors.push(`${path}: expected string, got ${got}`);
      else if (s.format === 'byte' && !BASE64.test(v as string)) r.errors.push(`${path}: illegal base64 data`);
      else if (s.format === 'date-time' && !RFC3339.test(v as string)) r.errors.push(`${path}: invalid RFC 3339 time ${JSON.stringify(v)}`);
      return;
    case 'integer':
      if (got !== 'integer') r.errors.push(`${path}: expected integer, got ${got}`);
      return;
    case 'number':
      if (got !== 'integer' && got !== 'number') r.errors.push(`${path}: expected number, got ${got}`);
      return;
    case 'boolean':
      if (got !== 'boolean') r.errors.push(`${path}: expected boolean, got ${got}`);
      return;
    default:
      if (s.properties && got === 'object') walkObject(v as Record<string, unknown>, s, defs, path, r, keep);
  }
}
