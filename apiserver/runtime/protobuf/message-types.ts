/**
 * The protobuf messages of proto/k8s.io (Kubernetes' field numbers), parsed with protobufjs once, on
 * first use, into the small descriptors the codec walks: per field its number, wire form, JSON key
 * and Go facts (see scripts/generate-proto.ts).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { PROTO_DIR } from './field-table.js';

export type Scalar = 'string' | 'bytes' | 'bool' | 'int32' | 'int64' | 'double';

/** How the codec treats a message: as a record of its fields, or as one of the special JSON forms. */
export type MessageForm =
  | 'record'
  /** meta.v1.Time: RFC 3339 seconds. */
  | 'time'
  /** meta.v1.MicroTime: RFC 3339 with microseconds. */
  | 'micro-time'
  /** resource.Quantity: a string (a JSON number is accepted). */
  | 'quantity'
  /** intstr.IntOrString: a number or a string. */
  | 'int-or-string'
  /** runtime.RawExtension, meta.v1.FieldsV1, apiextensions JSON: any JSON value, as bytes. */
  | 'raw-json'
  /** Verbs, ExtraValue: a JSON array of strings as `repeated string items = 1`. */
  | 'string-array'
  /** apiextensions JSONSchemaPropsOrArray / OrBool / OrStringArray. */
  | 'props-or-array'
  | 'props-or-bool'
  | 'props-or-string-array';

export interface FieldDescriptor {
  number: number;
  /** The proto field name. */
  name: string;
  /** The JSON key; "" for an inline message (its fields sit in the parent's object). */
  jsonKey: string;
  repeated: boolean;
  /** A scalar, or the message of the field (the value's message for a map). */
  scalar?: Scalar;
  message?: MessageDescriptor;
  /** map<string, …>: entries are messages {1: key, 2: value}. */
  map: boolean;
  /** Go: a pointer (a zero value is still sent in JSON). */
  pointer: boolean;
  /** Go: omitempty (a zero value is left out of JSON). */
  omitempty: boolean;
  inline: boolean;
}

export interface MessageDescriptor {
  /** Full name, "k8s.io.api.core.v1.Pod". */
  name: string;
  form: MessageForm;
  fields: FieldDescriptor[];
  byNumber: Map<number, FieldDescriptor>;
}

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const EXTENSIONS = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1';
const FORMS: Record<string, MessageForm> = {
  [`${META}.Time`]: 'time',
  [`${META}.MicroTime`]: 'micro-time',
  [`${META}.FieldsV1`]: 'raw-json',
  'k8s.io.apimachinery.pkg.api.resource.Quantity': 'quantity',
  'k8s.io.apimachinery.pkg.api.resource.QuantityValue': 'quantity',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': 'int-or-string',
  'k8s.io.apimachinery.pkg.runtime.RawExtension': 'raw-json',
  [`${EXTENSIONS}.JSON`]: 'raw-json',
  [`${EXTENSIONS}.JSONSchemaPropsOrArray`]: 'props-or-array',
  [`${EXTENSIONS}.JSONSchemaPropsOrBool`]: 'props-or-bool',
  [`${EXTENSIONS}.JSONSchemaPropsOrStringArray`]: 'props-or-string-array',
};

const SCALARS: Record<string, Scalar> = {
  string: 'string',
  bytes: 'bytes',
  bool: 'bool',
  int32: 'int32',
  int64: 'int64',
  double: 'double',
};

function protoFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? protoFiles(join(dir, e.name)) : e.name.endsWith('.proto') ? [join(dir, e.name)] : [],
  );
}

function formOf(type: protobuf.Type): MessageForm {
  const name = type.fullName.slice(1);
  const known = FORMS[name];
  if (known) return known;
  const [only] = type.fieldsArray;
  if (type.fieldsArray.length === 1 && only.name === 'items' && only.id === 1 && only.repeated && only.type === 'string')
    return 'string-array';
  return 'record';
}

function compile(root: protobuf.Root): Map<string, MessageDescriptor> {
  const types: protobuf.Type[] = [];
  const walk = (ns: protobuf.NamespaceBase) => {
    for (const child of ns.nestedArray) {
      if (child instanceof protobuf.Type) types.push(child);
      if (child instanceof protobuf.Namespace || child instanceof protobuf.Type) walk(child);
    }
  };
  walk(root);
  const out = new Map<string, MessageDescriptor>();
  for (const t of types) out.set(t.fullName.slice(1), { name: t.fullName.slice(1), form: formOf(t), fields: [], byNumber: new Map() });
  for (const t of types) {
    const d = out.get(t.fullName.slice(1))!;
    for (const f of t.fieldsArray) {
      const go = String(f.options?.['(orch.go)'] ?? '').split(',');
      const inline = go.includes('inline');
      const field: FieldDescriptor = {
        number: f.id,
        name: f.name,
        jsonKey: inline ? '' : ((f.options?.json_name as string | undefined) ?? f.name),
        repeated: f.repeated,
        map: f.map,
        pointer: go.includes('pointer'),
        omitempty: go.includes('omitempty'),
        inline,
      };
      if (f.resolvedType instanceof protobuf.Type) field.message = out.get(f.resolvedType.fullName.slice(1));
      else if (SCALARS[f.type]) field.scalar = SCALARS[f.type];
      else throw new Error(`${d.name}.${f.name}: unsupported type ${f.type}`);
      d.fields.push(field);
      d.byNumber.set(field.number, field);
    }
  }
  return out;
}

let messages: Map<string, MessageDescriptor> | undefined;

/** Every message by full name; parsed on first call. */
export function protoMessages(): ReadonlyMap<string, MessageDescriptor> {
  if (!messages) {
    const root = new protobuf.Root();
    root.loadSync(protoFiles(join(PROTO_DIR, 'k8s.io')), { keepCase: true });
    root.resolveAll();
    messages = compile(root);
  }
  return messages;
}

/** One message by full name, or undefined. */
export function protoMessage(name: string): MessageDescriptor | undefined {
  return protoMessages().get(name);
}
