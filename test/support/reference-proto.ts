/**
 * A second, independent reader of Kubernetes' protobuf: protobufjs' own decoder over messages built
 * straight from the committed reference field numbers (proto/source/kubernetes-1.28-proto.json), not
 * from orch's codec or generated .proto files. Golden tests decode orch's bytes with it and compare
 * with the JSON form. JSON names, inline fields and the special JSON forms (times, quantities,
 * int-or-string, raw JSON, string arrays) follow the table's Go facts.
 */
import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import type { FieldTable, ProtoField } from '../../apiserver/runtime/protobuf/field-table.js';
import { PROTO_SOURCE, protoPackageOf } from '../../apiserver/runtime/protobuf/field-table.js';

type Json = Record<string, any>;

const MAGIC = Buffer.from('k8s\0', 'binary');
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

let cache: { root: protobuf.Root; fields: Map<string, ProtoField[]> } | undefined;

function reference() {
  if (cache) return cache;
  const table = JSON.parse(readFileSync(PROTO_SOURCE, 'utf8')) as FieldTable;
  const nested: Json = {};
  const fields = new Map<string, ProtoField[]>();
  for (const [pkg, { messages }] of Object.entries(table.packages)) {
    let ns = nested;
    for (const part of pkg.split('.')) ns = (ns[part] ??= { nested: {} }).nested;
    const qualified = (t: string): string => {
      const map = /^map<(\w+),(.+)>$/.exec(t);
      if (map) return `map<${map[1]},${qualified(map[2])}>`;
      return /^[A-Z]/.test(t) ? `${pkg}.${t}` : t;
    };
    for (const [name, declared] of Object.entries(messages)) {
      const list = declared.map((f) => ({ ...f, type: qualified(f.type) }));
      fields.set(`${pkg}.${name}`, list);
      const json: Json = {};
      for (const f of list) {
        const map = /^map<(\w+),(.+)>$/.exec(f.type);
        const type = (t: string) => (t.includes('.') ? `.${t}` : t);
        // proto2: an optional field set to its zero value is present (a pointer's 0 in Go).
        json[f.name] = map
          ? { keyType: map[1], type: type(map[2]), id: f.number }
          : { type: type(f.type), id: f.number, rule: f.label, edition: 'proto2' };
      }
      ns[name] = { fields: json };
    }
  }
  const root = protobuf.Root.fromJSON({ nested });
  root.resolveAll();
  cache = { root, fields };
  return cache;
}

const rfc3339 = (seconds: number) => `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;

/** A decoded message (protobufjs toObject form) in its JSON form. */
function toJson(type: string, v: any): unknown {
  switch (type) {
    case `${META}.Time`:
      return rfc3339(v.seconds ?? 0);
    case `${META}.MicroTime`:
      return `${rfc3339(v.seconds ?? 0).slice(0, 19)}.${String(Math.floor((v.nanos ?? 0) / 1000)).padStart(6, '0')}Z`;
    case 'k8s.io.apimachinery.pkg.api.resource.Quantity':
      return v.string;
    case 'k8s.io.apimachinery.pkg.util.intstr.IntOrString':
      return Number(v.type) === 1 ? v.strVal : v.intVal;
    case `${META}.FieldsV1`:
      return JSON.parse(Buffer.from(v.Raw, 'base64').toString('utf8'));
    case 'k8s.io.apimachinery.pkg.runtime.RawExtension':
      return JSON.parse(Buffer.from(v.raw, 'base64').toString('utf8'));
  }
  const fields = reference().fields.get(type)!;
  if (fields.length === 1 && fields[0].name === 'items' && fields[0].type === 'string') return v.items ?? [];
  const out: Json = {};
  for (const f of fields) {
    const value = v[f.name];
    if (value === undefined) continue;
    const map = /^map<\w+,(.+)>$/.exec(f.type);
    const convert = (x: unknown) => (f.type.includes('.') ? toJson((map?.[1] ?? f.type) as string, x) : x);
    let json: unknown;
    if (map) json = Object.fromEntries(Object.entries(value).map(([k, x]) => [k, map[1].includes('.') ? convert(x) : x]));
    else if (f.label === 'repeated') json = (value as unknown[]).map(convert);
    else json = convert(value);
    if (f.go?.split(',').includes('inline')) Object.assign(out, json);
    else out[f.json ?? f.name] = json;
  }
  return out;
}

/** Decodes a message's bytes with the reference numbers into its JSON form. */
export function decodeReferenceMessage(type: string, bytes: Uint8Array): Json {
  const t = reference().root.lookupType(type);
  const obj = t.toObject(t.decode(bytes), { longs: Number, bytes: String, defaults: false });
  return toJson(type, obj) as Json;
}

/** The envelope `k8s\0` + runtime.Unknown: typeMeta and the raw message, decoded with the reference. */
export function decodeReferenceEnvelope(bytes: Buffer): { apiVersion: string; kind: string; raw: Uint8Array; unknown: Json } {
  if (!bytes.subarray(0, 4).equals(MAGIC)) throw new Error(`no k8s\\0 magic: ${bytes.subarray(0, 8).toString('hex')}`);
  const t = reference().root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
  const unknown = t.toObject(t.decode(bytes.subarray(4)), { bytes: Array, defaults: true }) as Json;
  return { apiVersion: unknown.typeMeta.apiVersion, kind: unknown.typeMeta.kind, raw: Uint8Array.from(unknown.raw), unknown };
}

/** A message given in its proto form (field names, nested messages as objects), with the reference numbers. */
export function encodeReferenceMessage(type: string, message: Json): Uint8Array {
  const t = reference().root.lookupType(type);
  return t.encode(t.fromObject(message)).finish();
}

/** The envelope `k8s\0` + runtime.Unknown around a message's bytes, as a Kubernetes client sends it. */
export function referenceEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const u = reference().root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
  return Buffer.concat([
    MAGIC,
    u.encode(u.fromObject({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' })).finish(),
  ]);
}

export function encodeReferenceEnvelope(apiVersion: string, kind: string, type: string, message: Json): Buffer {
  return referenceEnvelope(apiVersion, kind, encodeReferenceMessage(type, message));
}

/** A watch frame's WatchEvent: its type and the object's bytes (an envelope of their own). */
export function decodeReferenceWatchEvent(payload: Uint8Array): { type: string; object: Buffer } {
  const t = reference().root.lookupType(`${META}.WatchEvent`);
  const event = t.toObject(t.decode(payload), { bytes: Buffer }) as Json;
  return { type: event.type, object: Buffer.from(event.object.raw) };
}

/** The reference message of a schema name of api/generated/definitions.ts ("core.v1.Pod"). */
export function referenceMessageOf(schema: string): string {
  const prefix = schema.slice(0, schema.lastIndexOf('.'));
  const packages = [...new Set([...reference().fields.keys()].map((n) => n.slice(0, n.lastIndexOf('.'))))];
  const pkg = protoPackageOf(prefix, packages);
  if (!pkg) throw new Error(`no reference package for ${schema}`);
  return `${pkg}.${schema.slice(prefix.length + 1)}`;
}
