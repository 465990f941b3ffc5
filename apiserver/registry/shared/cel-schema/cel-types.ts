/**
 * The CEL type of a CRD schema node, as Kubernetes declares `self` for a validation rule: objects with
 * properties are typed objects (only their declared fields can be selected), `additionalProperties`
 * makes a map of strings, arrays are lists of their items' type, int-or-string is dyn, strings with
 * the byte, duration, date and date-time formats are bytes, duration and timestamp. The root of a
 * resource (and of an embedded resource) always has apiVersion, kind, metadata.name and
 * metadata.generateName. Unknown fields kept by preserve-unknown-fields are not exposed.
 * Types from the schema also carry the bounds cost estimation needs, computed as Kubernetes does: the most
 * elements (items, properties, bytes of a string) a value may have — maxItems, maxProperties, maxLength
 * × 4, or as many as fit in a 3 MiB request — and the fewest bytes the value takes in JSON.
 */
import { ext, isObject, type JsonSchemaProps } from './json-schema.js';

export type CelScalarKind =
  | 'int'
  | 'uint'
  | 'double'
  | 'string'
  | 'bool'
  | 'bytes'
  | 'null_type'
  | 'dyn'
  | 'type'
  | 'google.protobuf.Timestamp'
  | 'google.protobuf.Duration';

export type CelT = (
  | { kind: CelScalarKind }
  | { kind: 'list'; elem: CelT }
  | { kind: 'map'; key: CelT; value: CelT }
  | { kind: 'object'; fields: Map<string, CelT> }
) & { maxElements?: number; minSize?: number };

/** The largest request Kubernetes accepts, which bounds what a schema does not. */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

export const scalar = (kind: CelScalarKind): CelT => ({ kind });
export const DYN = scalar('dyn');

/** The name CEL prints for a type in its messages. */
export function celTypeName(t: CelT): string {
  switch (t.kind) {
    case 'list':
      return `list(${celTypeName(t.elem)})`;
    case 'map':
      return `map(${celTypeName(t.key)}, ${celTypeName(t.value)})`;
    case 'object':
      return 'object';
    default:
      return t.kind;
  }
}

/** String formats CEL sees as other types, with their longest and shortest JSON forms. */
const STRING_FORMATS: Record<string, { kind: CelScalarKind; max?: number; min: number }> = {
  byte: { kind: 'bytes', min: 2 },
  duration: { kind: 'google.protobuf.Duration', max: 32, min: 3 },
  date: { kind: 'google.protobuf.Timestamp', max: 12, min: 12 },
  'date-time': { kind: 'google.protobuf.Timestamp', max: 32, min: 21 },
};

const bounded = (t: CelT, maxElements: number, minSize: number): CelT => ({ ...t, maxElements, minSize });
const maxLength = (s: JsonSchemaProps) => (typeof s.maxLength === 'number' ? Math.max(0, s.maxLength) : undefined);

/** CEL's reserved words: a property so named cannot be selected as it is. */
const RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether CEL reads the name as a plain identifier (not a reserved word): a selectable field, a variable's name. */
export function isCelIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED.has(name);
}

/** apiVersion, kind, metadata.name and metadata.generateName, always readable at a resource's root. */
function withTypeAndObjectMeta(fields: Map<string, CelT>): void {
  if (!fields.has('apiVersion')) fields.set('apiVersion', scalar('string'));
  if (!fields.has('kind')) fields.set('kind', scalar('string'));
  const meta = fields.get('metadata');
  const metaFields = meta?.kind === 'object' ? new Map(meta.fields) : new Map<string, CelT>();
  if (!metaFields.has('name')) metaFields.set('name', scalar('string'));
  if (!metaFields.has('generateName')) metaFields.set('generateName', scalar('string'));
  fields.set('metadata', { kind: 'object', fields: metaFields });
}

/**
 * The type of `self` at a schema node, or undefined when the node is not exposed to CEL (no type,
 * or a list or map whose elements are not). Property names that are not CEL identifiers are left out.
 */
export function schemaCelType(s: JsonSchemaProps, prefix: string, resourceRoot = false, depth = 0): CelT | undefined {
  if (depth > 64) return undefined;
  if (ext(s, 'int-or-string', prefix) === true) return bounded(DYN, MAX_REQUEST_BYTES - 2, 1);
  const embedded = (c: JsonSchemaProps) => ext(c, 'embedded-resource', prefix) === true;
  switch (s.type) {
    case 'array': {
      if (!isObject(s.items)) return undefined;
      const elem = schemaCelType(s.items, prefix, embedded(s.items), depth + 1);
      if (!elem) return undefined;
      const max =
        typeof s.maxItems === 'number' ? Math.max(0, s.maxItems) : Math.floor((MAX_REQUEST_BYTES - 2) / ((elem.minSize ?? 1) + 1));
      return bounded({ kind: 'list', elem }, max, 2);
    }
    case 'object': {
      if (isObject(s.additionalProperties)) {
        const value = schemaCelType(s.additionalProperties, prefix, embedded(s.additionalProperties), depth + 1);
        if (!value) return undefined;
        const max =
          typeof s.maxProperties === 'number'
            ? Math.max(0, s.maxProperties)
            : Math.floor((MAX_REQUEST_BYTES - 2) / ((value.minSize ?? 1) + 6));
        return bounded({ kind: 'map', key: bounded(scalar('string'), 0, 2), value }, max, 2);
      }
      const fields = new Map<string, CelT>();
      const required = new Set(Array.isArray(s.required) ? s.required : []);
      let minSize = 2;
      for (const [name, prop] of Object.entries(isObject(s.properties) ? s.properties : {})) {
        if (!isObject(prop)) continue;
        const t = schemaCelType(prop, prefix, embedded(prop), depth + 1);
        if (!t) continue;
        if (isCelIdentifier(name)) fields.set(name, t);
        if (required.has(name) && prop.default === undefined) minSize += name.length + (t.minSize ?? 1) + 4;
      }
      if (resourceRoot) withTypeAndObjectMeta(fields);
      return bounded({ kind: 'object', fields }, 0, minSize);
    }
    case 'string': {
      const format = STRING_FORMATS[typeof s.format === 'string' ? s.format : ''];
      if (format?.kind === 'bytes') return bounded(scalar('bytes'), maxLength(s) ?? MAX_REQUEST_BYTES - 2, 2);
      if (format) return bounded(scalar(format.kind), format.max ?? 0, format.min);
      const max = maxLength(s);
      return bounded(scalar('string'), max === undefined ? MAX_REQUEST_BYTES - 2 : max * 4, 2);
    }
    case 'boolean':
      return bounded(scalar('bool'), 0, 4);
    case 'number':
      return bounded(scalar('double'), 0, 1);
    case 'integer':
      return bounded(scalar('int'), 0, 1);
    default:
      return undefined;
  }
}
