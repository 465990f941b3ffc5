/**
 * The CEL type of a CRD schema node, as Kubernetes declares `self` for a validation rule: objects with
 * properties are typed objects (only their declared fields can be selected), `additionalProperties`
 * makes a map of strings, arrays are lists of their items' type, int-or-string is dyn, strings with
 * the byte, duration, date and date-time formats are bytes, duration and timestamp. The root of a
 * resource (and of an embedded resource) always has apiVersion, kind, metadata.name and
 * metadata.generateName. Unknown fields kept by preserve-unknown-fields are not exposed.
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

export type CelT =
  | { kind: CelScalarKind }
  | { kind: 'list'; elem: CelT }
  | { kind: 'map'; key: CelT; value: CelT }
  | { kind: 'object'; fields: Map<string, CelT> };

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

const STRING_FORMATS: Record<string, CelScalarKind> = {
  byte: 'bytes',
  duration: 'google.protobuf.Duration',
  date: 'google.protobuf.Timestamp',
  'date-time': 'google.protobuf.Timestamp',
};

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
  if (ext(s, 'int-or-string', prefix) === true) return DYN;
  const embedded = (c: JsonSchemaProps) => ext(c, 'embedded-resource', prefix) === true;
  switch (s.type) {
    case 'array': {
      if (!isObject(s.items)) return undefined;
      const elem = schemaCelType(s.items, prefix, embedded(s.items), depth + 1);
      return elem && { kind: 'list', elem };
    }
    case 'object': {
      if (isObject(s.additionalProperties)) {
        const value = schemaCelType(s.additionalProperties, prefix, embedded(s.additionalProperties), depth + 1);
        return value && { kind: 'map', key: scalar('string'), value };
      }
      const fields = new Map<string, CelT>();
      for (const [name, prop] of Object.entries(isObject(s.properties) ? s.properties : {})) {
        if (!isObject(prop) || !IDENTIFIER.test(name) || RESERVED.has(name)) continue;
        const t = schemaCelType(prop, prefix, embedded(prop), depth + 1);
        if (t) fields.set(name, t);
      }
      if (resourceRoot) withTypeAndObjectMeta(fields);
      return { kind: 'object', fields };
    }
    case 'string':
      return scalar(STRING_FORMATS[typeof s.format === 'string' ? s.format : ''] ?? 'string');
    case 'boolean':
      return scalar('bool');
    case 'number':
      return scalar('double');
    case 'integer':
      return scalar('int');
    default:
      return undefined;
  }
}
