/**
 * Kubernetes' binary envelope: the magic `k8s\0`, then a runtime.Unknown {typeMeta {apiVersion,
 * kind}, raw (the object's message), contentEncoding, contentType}; and the watch stream's frames: a
 * 4-byte big-endian length, then a meta.v1.WatchEvent {type, object: RawExtension {raw: an envelope}}.
 */
import protobuf from 'protobufjs';
import { ProtobufError, WIRE_BYTES, WireReader } from './wire-reader.js';
import { wellFormed } from './utf8.js';

export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

/** Magic + runtime.Unknown around a message, every field written as Kubernetes' Go code writes it. */
export function encodeEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const w = protobuf.Writer.create();
  w.uint32(0x0a).fork().uint32(0x0a).string(wellFormed(apiVersion)).uint32(0x12).string(wellFormed(kind)).ldelim();
  w.uint32(0x12).bytes(raw);
  w.uint32(0x1a).string('');
  w.uint32(0x22).string('');
  const body = w.finish();
  return Buffer.concat([PROTOBUF_MAGIC, body], PROTOBUF_MAGIC.length + body.length);
}

function typeMeta(r: WireReader): { apiVersion: string; kind: string } {
  const out = { apiVersion: '', kind: '' };
  while (!r.done()) {
    const [n, wt] = r.tag();
    if (n === 1 && wt === WIRE_BYTES) out.apiVersion = r.string();
    else if (n === 2 && wt === WIRE_BYTES) out.kind = r.string();
    else r.skip(wt);
  }
  return out;
}

/** The envelope of a body; a ProtobufError for anything that is not one. */
export function decodeEnvelope(bytes: Uint8Array): Envelope {
  if (bytes.length === 0) throw new ProtobufError('empty body');
  if (bytes.length < PROTOBUF_MAGIC.length || !PROTOBUF_MAGIC.equals(bytes.subarray(0, PROTOBUF_MAGIC.length))) {
    throw new ProtobufError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  }
  if (bytes.length === PROTOBUF_MAGIC.length) throw new ProtobufError('empty body');
  const r = new WireReader(bytes, PROTOBUF_MAGIC.length);
  const env: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(), contentEncoding: '', contentType: '' };
  while (!r.done()) {
    const [n, wt] = r.tag();
    if (wt !== WIRE_BYTES) {
      r.skip(wt);
      continue;
    }
    if (n === 1) {
      const [start, end] = r.delimited();
      Object.assign(env, typeMeta(new WireReader(bytes, start, end)));
    } else if (n === 2) env.raw = r.bytes();
    else if (n === 3) env.contentEncoding = r.string();
    else if (n === 4) env.contentType = r.string();
    else r.skip(wt);
  }
  return env;
}

/** One watch stream frame: length prefix + WatchEvent {type, object {raw: envelope}}. */
export function encodeWatchFrame(type: string, envelope: Uint8Array): Buffer {
  const w = protobuf.Writer.create();
  w.uint32(0x0a).string(wellFormed(type));
  w.uint32(0x12).fork().uint32(0x0a).bytes(envelope).ldelim();
  const event = w.finish();
  const frame = Buffer.allocUnsafe(4 + event.length);
  frame.writeUInt32BE(event.length, 0);
  frame.set(event, 4);
  return frame;
}

/** The WatchEvent of one frame's payload (without its length prefix): its type and object envelope. */
export function decodeWatchEvent(payload: Uint8Array): { type: string; object: Uint8Array } {
  const r = new WireReader(payload);
  let type = '';
  let object: Uint8Array = new Uint8Array();
  while (!r.done()) {
    const [n, wt] = r.tag();
    if (n === 1 && wt === WIRE_BYTES) type = r.string();
    else if (n === 2 && wt === WIRE_BYTES) {
      const [start, end] = r.delimited();
      const ext = new WireReader(payload, start, end);
      while (!ext.done()) {
        const [en, ewt] = ext.tag();
        if (en === 1 && ewt === WIRE_BYTES) object = ext.bytes();
        else ext.skip(ewt);
      }
    } else r.skip(wt);
  }
  return { type, object };
}
