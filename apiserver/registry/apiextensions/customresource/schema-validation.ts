/**
 * A custom object against its CRD's structural schema, with the messages Kubernetes' OpenAPI validator
 * gives (`spec.replicas in body must be of type integer: "string"`): types and formats, nullable,
 * enum, pattern, bounds, lengths, item and property counts, required fields, allOf/anyOf/oneOf/not,
 * and the int-or-string, embedded-resource and preserve-unknown-fields extensions.
 */
import type { Schema } from '../../../api/schema.js';
import {
  forbidden,
  invalid,
  notSupported,
  required,
  tooLong,
  tooMany,
  typeInvalid,
  type FieldError,
  type FieldPath,
  fieldPath,
} from '../../../api/field-errors.js';
import { ownProperty } from '../../../api/schema.js';
import { isPlainObject } from '../../../api/object.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** Format checkers for the formats Kubernetes validates (others are accepted as any string). */
const FORMATS: Record<string, (s: string) => boolean> = {
  'date-time': (s) => RFC3339.test(s) && !Number.isNaN(Date.parse(s)),
  datetime: (s) => RFC3339.test(s) && !Number.isNaN(Date.parse(s)),
  date: (s) => DATE.test(s) && !Number.isNaN(Date.parse(s)),
  byte: (s) => BASE64.test(s),
  uuid: (s) => UUID.test(s),
  ipv4: (s) => IPV4.test(s),
  ipv6: (s) => s.includes(':') && /^[0-9a-fA-F:.]+$/.test(s),
  email: (s) => /^[^@\s]+@[^@\s]+$/.test(s),
  hostname: (s) => /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/i.test(s) && s.length <= 253,
};

/** Regular expressions of a schema, compiled once. */
const patterns = new Map<string, RegExp | null>();
function compiled(pattern: string): RegExp | null {
  let re = patterns.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      re = null;
    }
    patterns.set(pattern, re);
  }
  return re;
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(type: string, v: unknown): boolean {
  const got = jsonType(v);
  return got === type || (type === 'number' && got === 'integer');
}

/** Errors of `value` at `path` against `s`. */
export function validateValue(value: unknown, s: Schema, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  check(value, s, path, errors);
  return errors;
}

function check(v: unknown, s: Schema, path: FieldPath, errors: FieldError[]): void {
  const at = path.toString();
  if (v === null) {
    if (!s.nullable && s.type && !s['x-orch-preserve-unknown-fields'])
      errors.push(typeInvalid(path, 'null', `${at} in body must be of type ${s.type}: "null"`));
    return;
  }
  if (s['x-orch-int-or-string']) {
    const got = jsonType(v);
    if (got !== 'integer' && got !== 'string') errors.push(typeInvalid(path, v, `${at} in body must be of type integer,string: "${got}"`));
  } else if (s.type && !typeMatches(s.type, v)) {
    errors.push(typeInvalid(path, jsonType(v), `${at} in body must be of type ${s.type}: "${jsonType(v)}"`));
    return;
  }
  if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
    errors.push(
      notSupported(
        path,
        v,
        s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))),
      ),
    );
  }
  if (typeof v === 'string') checkString(v, s, path, errors);
  else if (typeof v === 'number') checkNumber(v, s, path, errors);
  else if (Array.isArray(v)) checkArray(v, s, path, errors);
  else if (isPlainObject(v)) checkObject(v, s, path, errors); // null returned above
  for (const sub of s.allOf ?? []) check(v, sub, path, errors);
  if (s.anyOf && !s.anyOf.some((sub) => validateValue(v, sub, path).length === 0)) {
    errors.push(invalid(path, v, `${at} in body must match at least one schema in anyOf`));
  }
  if (s.oneOf && s.oneOf.filter((sub) => validateValue(v, sub, path).length === 0).length !== 1) {
    errors.push(invalid(path, v, `${at} in body must match exactly one schema in oneOf`));
  }
  if (s.not && validateValue(v, s.not, path).length === 0)
    errors.push(invalid(path, v, `${at} in body must not validate the schema (not)`));
}

function checkString(v: string, s: Schema, path: FieldPath, errors: FieldError[]): void {
  const at = path.toString();
  if (s.maxLength !== undefined && [...v].length > s.maxLength) errors.push(tooLong(path, v, s.maxLength));
  if (s.minLength !== undefined && [...v].length < s.minLength)
    errors.push(invalid(path, v, `${at} in body should be at least ${s.minLength} chars long`));
  if (s.pattern !== undefined) {
    const re = compiled(s.pattern);
    if (re && !re.test(v)) errors.push(invalid(path, v, `${at} in body should match '${s.pattern}'`));
  }
  const format = s.format && FORMATS[s.format];
  if (format && !s['x-orch-int-or-string'] && !format(v))
    errors.push(invalid(path, v, `${at} in body must be of type ${s.format}: "${v}"`));
}

function checkNumber(v: number, s: Schema, path: FieldPath, errors: FieldError[]): void {
  const at = path.toString();
  if (s.maximum !== undefined) {
    if (s.exclusiveMaximum ? v >= s.maximum : v > s.maximum) {
      errors.push(invalid(path, v, `${at} in body should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${s.maximum}`));
    }
  }
  if (s.minimum !== undefined) {
    if (s.exclusiveMinimum ? v <= s.minimum : v < s.minimum) {
      errors.push(invalid(path, v, `${at} in body should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${s.minimum}`));
    }
  }
  if (s.multipleOf !== undefined && s.multipleOf > 0 && !Number.isInteger(v / s.multipleOf)) {
    errors.push(invalid(path, v, `${at} in body should be a multiple of ${s.multipleOf}`));
  }
}

function checkArray(v: unknown[], s: Schema, path: FieldPath, errors: FieldError[]): void {
  const at = path.toString();
  if (s.maxItems !== undefined && v.length > s.maxItems) errors.push(tooMany(path, v.length, s.maxItems));
  if (s.minItems !== undefined && v.length < s.minItems)
    errors.push(invalid(path, v.length, `${at} in body should have at least ${s.minItems} items`));
  if (s.items) v.forEach((item, i) => check(item, s.items!, path.index(i), errors));
  const listType = s['x-orch-list-type'];
  if (listType === 'set') {
    const seen = new Set<string>();
    v.forEach((item, i) => {
      const key = JSON.stringify(item);
      if (seen.has(key)) errors.push({ type: 'FieldValueDuplicate', field: path.index(i).toString(), badValue: item, detail: '' });
      seen.add(key);
    });
  } else if (listType === 'map') {
    const keys = s['x-orch-list-map-keys'] ?? [];
    const seen = new Set<string>();
    v.forEach((item, i) => {
      if (typeof item !== 'object' || item === null) return;
      const key = JSON.stringify(keys.map((k) => (item as Record<string, unknown>)[k]));
      if (seen.has(key)) {
        const value = Object.fromEntries(keys.map((k) => [k, (item as Record<string, unknown>)[k]]));
        errors.push({ type: 'FieldValueDuplicate', field: path.index(i).toString(), badValue: value, detail: '' });
      }
      seen.add(key);
    });
  }
}

function checkObject(v: Record<string, unknown>, s: Schema, path: FieldPath, errors: FieldError[]): void {
  const at = path.toString();
  const count = Object.keys(v).length;
  if (s.maxProperties !== undefined && count > s.maxProperties) errors.push(tooMany(path, count, s.maxProperties));
  if (s.minProperties !== undefined && count < s.minProperties) {
    errors.push(invalid(path, count, `${at} in body should have at least ${s.minProperties} properties`));
  }
  for (const name of s.required ?? []) if (!(name in v)) errors.push(required(path.child(name)));
  for (const [key, child] of Object.entries(v)) {
    const childSchema = ownProperty(s.properties, key) ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    if (childSchema) check(child, childSchema, s.properties ? path.child(key) : path.key(key), errors);
  }
  if (s['x-orch-embedded-resource']) {
    if (typeof v.apiVersion !== 'string' || v.apiVersion === '') errors.push(required(path.child('apiVersion'), 'must not be empty'));
    if (typeof v.kind !== 'string' || v.kind === '') errors.push(required(path.child('kind'), 'must not be empty'));
    if (v.metadata !== undefined && (typeof v.metadata !== 'object' || v.metadata === null)) {
      errors.push(forbidden(path.child('metadata'), 'must be an object'));
    }
  }
}

/** A custom object's errors against its version's schema; metadata, apiVersion and kind are the store's to check. */
export function validateCustomObject(obj: Record<string, unknown>, s: Schema): FieldError[] {
  const errors: FieldError[] = [];
  for (const name of s.required ?? []) {
    if (!(name in obj) && name !== 'metadata' && name !== 'apiVersion' && name !== 'kind') errors.push(required(fieldPath(name)));
  }
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'metadata' || key === 'apiVersion' || key === 'kind') continue;
    const child = ownProperty(s.properties, key);
    if (child) check(value, child, fieldPath(key), errors);
  }
  return errors;
}
