/**
 * Swagger 2.0 documents in gnostic's protobuf form: the message openapi.v2.Document of
 * proto/gnostic/openapiv2.proto, which client-go decodes when kubectl downloads /openapi/v2.
 *
 * The conversion follows the message definitions, as gnostic's compiler builds them from JSON: keys
 * become the snake_case fields (`$ref` is `_ref`); `x-…` keys become `vendor_extension` entries whose
 * Any holds the YAML text of the value; JSON maps become ordered Named* lists; and the few messages
 * that are not plain records (TypeItem, ItemsItem, AdditionalPropertiesItem and the oneofs) are built
 * by hand. A key the target message cannot hold is an error, so nothing is silently dropped.
 */
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import YAML from 'yaml';
import { isPlainObject } from '../api/object.js';

type Json = Record<string, unknown>;

const PROTO = fileURLToPath(new URL('../../../proto/gnostic/openapiv2.proto', import.meta.url));

let root: protobuf.Root | undefined;

/** The message type `openapi.v2.<name>` (fields keep the proto's snake_case names); loaded on first use. */
function gnosticType(name: string): protobuf.Type {
  if (!root) {
    root = new protobuf.Root().loadSync(PROTO, { keepCase: true });
    root.resolveAll();
  }
  return root.lookupType(`openapi.v2.${name}`);
}

/** The protobuf encoding of a swagger 2.0 document given as JSON. */
export function encodeGnosticDocument(doc: Json): Buffer {
  const type = gnosticType('Document');
  return Buffer.from(type.encode(type.fromObject(toMessage(type, doc))).finish());
}

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const isRef = (v: unknown): v is Json => isPlainObject(v) && typeof v.$ref === 'string';

/** The JSON object a message of `type` is built from; anything else is an error. */
function jsonObject(type: protobuf.Type, v: unknown): Json {
  if (isPlainObject(v)) return v;
  throw new Error(`openapi v2: ${type.name} must be a JSON object`);
}

/** The message type of a field; every message-valued field of the schema resolves to one. */
function messageType(field: protobuf.Field): protobuf.Type {
  const type = field.resolvedType;
  if (type instanceof protobuf.Type) return type;
  throw new Error(`openapi v2: field ${field.name} does not hold a message`);
}

/** Messages that are not records of their JSON object's keys. */
const SPECIAL: Record<string, (v: unknown) => Json> = {
  Any: (v) => ({ yaml: YAML.stringify(v, { version: '1.1' }) }),
  TypeItem: (v) => ({ value: [v].flat() }),
  ItemsItem: (v) => ({ schema: [v].flat().map((s) => toMessage(gnosticType('Schema'), s)) }),
  AdditionalPropertiesItem: (v) => (typeof v === 'boolean' ? { boolean: v } : { schema: toMessage(gnosticType('Schema'), v) }),
  SchemaItem: (v) =>
    isPlainObject(v) && v.type === 'file'
      ? { file_schema: record(gnosticType('FileSchema'), v) }
      : { schema: toMessage(gnosticType('Schema'), v) },
  ParametersItem: (v) =>
    isRef(v) ? { json_reference: record(gnosticType('JsonReference'), v) } : { parameter: toMessage(gnosticType('Parameter'), v) },
  ResponseValue: (v) =>
    isRef(v) ? { json_reference: record(gnosticType('JsonReference'), v) } : { response: toMessage(gnosticType('Response'), v) },
  Parameter: (v) => {
    const json = jsonObject(gnosticType('Parameter'), v);
    const where = String(json.in);
    if (where === 'body') return { body_parameter: record(gnosticType('BodyParameter'), json) };
    const field = gnosticType('NonBodyParameter').fields[`${snakeCase(where)}_parameter_sub_schema`];
    if (!field) throw new Error(`openapi v2: unknown parameter location "${where}"`);
    return { non_body_parameter: { [field.name]: record(messageType(field), json) } };
  },
  Paths: (v) => namedWithExtensions(gnosticType('Paths'), 'path', v),
  Responses: (v) => namedWithExtensions(gnosticType('Responses'), 'response_code', v),
};

function toMessage(type: protobuf.Type, value: unknown): Json {
  const special = SPECIAL[type.name];
  if (special) return special(value);
  const map = type.fields.additional_properties;
  if (map?.repeated) return { additional_properties: named(map, jsonObject(type, value)) };
  return record(type, value);
}

/** A message whose fields are the object's keys; `x-…` keys go to its vendor extensions. */
function record(type: protobuf.Type, value: unknown): Json {
  const json = jsonObject(type, value);
  const out: Json = {};
  for (const [key, value] of Object.entries(json)) {
    if (key.startsWith('x-')) continue;
    const field = type.fields[key === '$ref' ? '_ref' : snakeCase(key)];
    if (!field) throw new Error(`openapi v2: ${type.name} has no field for "${key}"`);
    out[field.name] = fieldValue(field, value);
  }
  return { ...out, ...extensionsOf(type, json) };
}

/** A message holding a map (one Named* list field) next to vendor extensions. */
function namedWithExtensions(type: protobuf.Type, mapField: string, value: unknown): Json {
  const json = jsonObject(type, value);
  const entries = Object.fromEntries(Object.entries(json).filter(([k]) => !k.startsWith('x-')));
  return { [mapField]: named(type.fields[mapField], entries), ...extensionsOf(type, json) };
}

function extensionsOf(type: protobuf.Type, json: Json): Json {
  const ext = Object.entries(json).filter(([k]) => k.startsWith('x-'));
  if (!ext.length) return {};
  if (!type.fields.vendor_extension) throw new Error(`openapi v2: ${type.name} has no vendor extensions ("${ext[0][0]}")`);
  return { vendor_extension: ext.map(([name, v]) => ({ name, value: SPECIAL.Any(v) })) };
}

/** A JSON object as an ordered list of Named* { name, value } entries. */
function named(field: protobuf.Field, json: Json): Json[] {
  const valueField = messageType(field).fields.value;
  return Object.entries(json).map(([name, value]) => ({ name, value: fieldValue(valueField, value) }));
}

function fieldValue(field: protobuf.Field, value: unknown): unknown {
  const type = field.resolvedType;
  if (!(type instanceof protobuf.Type)) return value;
  if (!field.repeated) return toMessage(type, value);
  if (!Array.isArray(value)) throw new Error(`openapi v2: ${field.name} must be a list`);
  return value.map((v) => toMessage(type, v));
}
