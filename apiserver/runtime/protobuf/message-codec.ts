/**
 * One message between its JSON form (what the API serves, the internal representation every path
 * uses) and its protobuf bytes, walking the descriptors of message-types.ts. JSON keys and the
 * special JSON forms (times, quantities, int-or-string, raw JSON, string arrays) follow Kubernetes'
 * Go types; decoding drops a zero value Go's JSON would leave out (omitempty, not a pointer).
 */
import protobuf from 'protobufjs';
import type { FieldDescriptor, MessageDescriptor, Scalar } from './message-types.js';
import { ProtobufError, WIRE_BYTES, WIRE_FIXED64, WIRE_VARINT, WireReader } from './wire-reader.js';
import { wellFormed } from './utf8.js';

type Json = Record<string, unknown>;

/** Messages nested deeper than this are refused (as JSON bodies deeper than 1000 levels are). */
export const MAX_MESSAGE_DEPTH = 1000;

const tag = (number: number, wireType: number) => ((number << 3) | wireType) >>> 0;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function wireTypeOf(scalar: Scalar): number {
  if (scalar === 'string' || scalar === 'bytes') return WIRE_BYTES;
  return scalar === 'double' ? WIRE_FIXED64 : WIRE_VARINT;
}

// ——— encoding ———

/** The message's bytes for a JSON value. */
export function encodeMessage(desc: MessageDescriptor, value: unknown): Uint8Array {
  return Object.isFrozen(value) && desc.form === 'record' ? memoized(desc, value as Json) : encodeFresh(desc, value);
}

function encodeFresh(desc: MessageDescriptor, value: unknown): Uint8Array {
  const w = protobuf.Writer.create();
  encodeBody(w, desc, value);
  return w.finish();
}

const encoded = new WeakMap<Json, Map<MessageDescriptor, Uint8Array>>();

/**
 * A frozen object (the watch cache's, shared by every reader and never changed) is encoded once per
 * message and its bytes reused while it lives: for GETs, and for each item of every LIST that holds it.
 */
function memoized(desc: MessageDescriptor, value: Json): Uint8Array {
  let byMessage = encoded.get(value);
  if (!byMessage) encoded.set(value, (byMessage = new Map()));
  let bytes = byMessage.get(desc);
  if (!bytes) byMessage.set(desc, (bytes = encodeFresh(desc, value)));
  return bytes;
}

function encodeScalar(w: protobuf.Writer, scalar: Scalar, v: unknown): void {
  switch (scalar) {
    case 'string':
      w.string(wellFormed(typeof v === 'string' ? v : String(v)));
      return;
    case 'bytes':
      w.bytes(Buffer.from(String(v), 'base64'));
      return;
    case 'bool':
      w.bool(v === true);
      return;
    case 'int32':
      w.int32(Number(v));
      return;
    case 'int64':
      w.int64(Math.trunc(Number(v)));
      return;
    case 'double':
      w.double(Number(v));
      return;
  }
}

function encodeValue(w: protobuf.Writer, number: number, f: FieldDescriptor, v: unknown): void {
  if (f.scalar) {
    w.uint32(tag(number, wireTypeOf(f.scalar)));
    encodeScalar(w, f.scalar, v);
    return;
  }
  w.uint32(tag(number, WIRE_BYTES)).fork();
  encodeBody(w, f.message!, v);
  w.ldelim();
}

function encodeField(w: protobuf.Writer, f: FieldDescriptor, v: unknown): void {
  if (v === undefined || v === null) return;
  if (f.map) {
    if (!isObject(v)) throw new ProtobufError(`${f.name}: expected an object, got ${typeof v}`);
    for (const key of Object.keys(v).sort()) {
      w.uint32(tag(f.number, WIRE_BYTES)).fork();
      w.uint32(tag(1, WIRE_BYTES)).string(wellFormed(key));
      if (v[key] !== null && v[key] !== undefined) encodeValue(w, 2, f, v[key]);
      w.ldelim();
    }
  } else if (f.repeated) {
    if (!Array.isArray(v)) throw new ProtobufError(`${f.name}: expected an array, got ${typeof v}`);
    // A list's items: the ones the watch cache holds are encoded once (memoized).
    const listItems = f.jsonKey === 'items' && f.message?.form === 'record';
    for (const item of v) {
      if (item === null) continue;
      if (listItems && Object.isFrozen(item)) w.uint32(tag(f.number, WIRE_BYTES)).bytes(memoized(f.message!, item));
      else encodeValue(w, f.number, f, item);
    }
  } else encodeValue(w, f.number, f, v);
}

function encodeBody(w: protobuf.Writer, desc: MessageDescriptor, v: unknown): void {
  switch (desc.form) {
    case 'record': {
      if (!isObject(v)) throw new ProtobufError(`${desc.name}: expected an object, got ${Array.isArray(v) ? 'array' : typeof v}`);
      for (const f of desc.fields) encodeField(w, f, f.inline ? v : v[f.jsonKey]);
      return;
    }
    case 'time':
    case 'micro-time': {
      const [seconds, nanos] = parseTime(v);
      w.uint32(tag(1, WIRE_VARINT)).int64(seconds);
      if (nanos && desc.form === 'micro-time') w.uint32(tag(2, WIRE_VARINT)).int32(nanos);
      return;
    }
    case 'quantity':
      w.uint32(tag(1, WIRE_BYTES)).string(wellFormed(String(v)));
      return;
    case 'int-or-string':
      if (typeof v === 'number') w.uint32(tag(1, WIRE_VARINT)).int64(0).uint32(tag(2, WIRE_VARINT)).int32(v);
      else
        w.uint32(tag(1, WIRE_VARINT))
          .int64(1)
          .uint32(tag(3, WIRE_BYTES))
          .string(wellFormed(String(v)));
      return;
    case 'raw-json':
      w.uint32(tag(1, WIRE_BYTES)).bytes(Buffer.from(JSON.stringify(v)));
      return;
    case 'string-array':
      if (!Array.isArray(v)) throw new ProtobufError(`${desc.name}: expected an array`);
      for (const s of v) w.uint32(tag(1, WIRE_BYTES)).string(wellFormed(String(s)));
      return;
    case 'props-or-array':
      if (Array.isArray(v)) encodeField(w, desc.byNumber.get(2)!, v);
      else encodeField(w, desc.byNumber.get(1)!, v);
      return;
    case 'props-or-bool':
      if (typeof v === 'boolean') w.uint32(tag(1, WIRE_VARINT)).bool(v);
      else {
        w.uint32(tag(1, WIRE_VARINT)).bool(true);
        encodeField(w, desc.byNumber.get(2)!, v);
      }
      return;
    case 'props-or-string-array':
      if (Array.isArray(v)) encodeField(w, desc.byNumber.get(2)!, v);
      else encodeField(w, desc.byNumber.get(1)!, v);
      return;
  }
}

/** An RFC 3339 time as [seconds, nanoseconds]. */
function parseTime(v: unknown): [number, number] {
  const s = String(v);
  const ms = Date.parse(s);
  if (Number.isNaN(ms)) throw new ProtobufError(`invalid time ${JSON.stringify(s)}`);
  const fraction = /\.(\d+)/.exec(s)?.[1] ?? '';
  return [Math.floor(ms / 1000), Number(fraction.padEnd(9, '0').slice(0, 9))];
}

// ——— decoding ———

export interface DecodeContext {
  /** Paths of field numbers the message does not define ("spec.#12"), for fieldValidation. */
  unknownFields: string[];
}

/** The JSON value of a message's bytes. */
export function decodeMessage(desc: MessageDescriptor, bytes: Uint8Array, ctx: DecodeContext = { unknownFields: [] }): unknown {
  return decodeBody(desc, new WireReader(bytes), 0, '', ctx);
}

function isZero(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

function decodeScalar(r: WireReader, scalar: Scalar): unknown {
  switch (scalar) {
    case 'string':
      return r.string();
    case 'bytes':
      return Buffer.from(r.bytes()).toString('base64');
    case 'bool':
      return r.varint() !== 0;
    case 'int32':
      return r.int32();
    case 'int64':
      return r.int64();
    case 'double':
      return r.double();
  }
}

function decodeValue(r: WireReader, f: FieldDescriptor, wireType: number, depth: number, path: string, ctx: DecodeContext): unknown {
  if (f.scalar) {
    if (wireType !== wireTypeOf(f.scalar)) throw new ProtobufError(`${path}: wire type ${wireType} for a ${f.scalar}`);
    return decodeScalar(r, f.scalar);
  }
  if (wireType !== WIRE_BYTES) throw new ProtobufError(`${path}: wire type ${wireType} for a message`);
  const [start, end] = r.delimited();
  return decodeBody(f.message!, new WireReader(r.buf, start, end), depth + 1, path, ctx);
}

function decodeMapEntry(
  r: WireReader,
  f: FieldDescriptor,
  wireType: number,
  depth: number,
  path: string,
  ctx: DecodeContext,
): [string, unknown] {
  if (wireType !== WIRE_BYTES) throw new ProtobufError(`${path}: wire type ${wireType} for a map entry`);
  const [start, end] = r.delimited();
  const entry = new WireReader(r.buf, start, end);
  let key = '';
  let value: unknown = f.scalar === 'string' || f.scalar === 'bytes' ? '' : null;
  while (!entry.done()) {
    const [n, wt] = entry.tag();
    if (n === 1 && wt === WIRE_BYTES) key = entry.string();
    else if (n === 2) value = decodeValue(entry, f, wt, depth, `${path}[${JSON.stringify(key)}]`, ctx);
    else entry.skip(wt);
  }
  return [key, value];
}

function readField(r: WireReader, f: FieldDescriptor, wireType: number, depth: number, path: string, ctx: DecodeContext, out: Json): void {
  if (f.map) {
    // The field's entries so far: only this function sets a map field's key.
    const seen = out[f.jsonKey];
    const map: Json = isObject(seen) ? seen : {};
    out[f.jsonKey] = map;
    const [k, v] = decodeMapEntry(r, f, wireType, depth, path, ctx);
    map[k] = v;
    return;
  }
  if (f.repeated) {
    const seen = out[f.jsonKey];
    const list: unknown[] = Array.isArray(seen) ? seen : [];
    out[f.jsonKey] = list;
    // Repeated scalars may come packed.
    if (f.scalar && wireType === WIRE_BYTES && f.scalar !== 'string' && f.scalar !== 'bytes') {
      const [start, end] = r.delimited();
      const packed = new WireReader(r.buf, start, end);
      while (!packed.done()) list.push(decodeScalar(packed, f.scalar));
    } else list.push(decodeValue(r, f, wireType, depth, path, ctx));
    return;
  }
  const v = decodeValue(r, f, wireType, depth, path, ctx);
  if (f.inline) {
    if (isObject(v)) Object.assign(out, v);
  } else if (v === null || (f.scalar && !f.pointer && f.omitempty && isZero(v))) delete out[f.jsonKey];
  else out[f.jsonKey] = v;
}

function decodeRecord(desc: MessageDescriptor, r: WireReader, depth: number, path: string, ctx: DecodeContext): Json {
  const out: Json = {};
  while (!r.done()) {
    const [number, wireType] = r.tag();
    const f = desc.byNumber.get(number);
    if (!f) {
      ctx.unknownFields.push(`${path ? `${path}.` : ''}#${number}`);
      r.skip(wireType);
      continue;
    }
    readField(r, f, wireType, depth, f.inline ? path : `${path ? `${path}.` : ''}${f.jsonKey}`, ctx, out);
  }
  return out;
}

function decodeBody(desc: MessageDescriptor, r: WireReader, depth: number, path: string, ctx: DecodeContext): unknown {
  if (depth > MAX_MESSAGE_DEPTH) throw new ProtobufError(`messages nested deeper than ${MAX_MESSAGE_DEPTH} levels`);
  switch (desc.form) {
    case 'record':
      return decodeRecord(desc, r, depth, path, ctx);
    case 'time':
    case 'micro-time': {
      if (r.done()) return null;
      const { seconds = 0, nanos = 0 } = decodeRecord(desc, r, depth, path, ctx) as { seconds?: number; nanos?: number };
      return formatTime(seconds, desc.form === 'micro-time' ? nanos : 0, desc.form === 'micro-time');
    }
    case 'quantity':
      return decodeRecord(desc, r, depth, path, ctx).string ?? '0';
    case 'int-or-string': {
      const v = decodeRecord(desc, r, depth, path, ctx) as { type?: number; intVal?: number; strVal?: string };
      return v.type === 1 ? (v.strVal ?? '') : (v.intVal ?? 0);
    }
    case 'raw-json':
      return decodeRawJson(r, path);
    case 'string-array':
      return decodeRecord(desc, r, depth, path, ctx).items ?? [];
    case 'props-or-array': {
      const v = decodeRecord(desc, r, depth, path, ctx);
      return v.JSONSchemas ?? v.schema ?? null;
    }
    case 'props-or-bool': {
      const v = decodeRecord(desc, r, depth, path, ctx);
      return v.schema ?? v.allows ?? false;
    }
    case 'props-or-string-array': {
      const v = decodeRecord(desc, r, depth, path, ctx);
      return v.property ?? v.schema ?? null;
    }
  }
}

/** Field 1 of RawExtension, FieldsV1 and JSON: JSON bytes. */
function decodeRawJson(r: WireReader, path: string): unknown {
  let raw: Uint8Array | undefined;
  while (!r.done()) {
    const [n, wt] = r.tag();
    if (n === 1 && wt === WIRE_BYTES) raw = r.bytes();
    else r.skip(wt);
  }
  if (!raw?.length) return null;
  try {
    return JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.length).toString('utf8'));
  } catch {
    throw new ProtobufError(`${path}: raw bytes are not JSON`);
  }
}

function formatTime(seconds: number, nanos: number, micro: boolean): string {
  const iso = new Date(seconds * 1000).toISOString(); // 2006-01-02T15:04:05.000Z
  return micro ? `${iso.slice(0, 19)}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${iso.slice(0, 19)}Z`;
}
