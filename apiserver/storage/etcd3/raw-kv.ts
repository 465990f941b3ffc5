/**
 * etcd's KV reads (Range, and read-only Txn of Ranges) encoded and decoded by hand, sent on the
 * etcd3 client's own connections (raw-call.ts). The client's codec (@grpc/proto-loader) builds
 * every message as a plain object: each KeyValue's four int64s as Long and then as decimal strings,
 * every default field set, a copy per bytes field. For a history page (a Txn of 101 Ranges) that was
 * ~1 ms of the server's ~5 ms; for a GET, ~40 µs. Here a read decodes to numbers and Buffers straight
 * from the wire, and only the fields a reader uses: a range's key-values, `more`, `count`, and the
 * header's revision. Field numbers are etcd's api/etcdserverpb/rpc.proto and mvccpb/kv.proto.
 */
import protobuf from 'protobufjs';

/** One key-value as read (mvccpb.KeyValue, without the lease). */
export interface RawKeyValue {
  key: Buffer;
  value: Buffer;
  createRevision: number;
  modRevision: number;
  version: number;
}

/** etcdserverpb.RangeRequest, the fields orch asks with. */
export interface RawRange {
  key: Buffer;
  rangeEnd?: Buffer;
  limit?: number;
  /** 0 or absent: the current revision. */
  revision?: number;
  keysOnly?: boolean;
}

export interface RawRangeResult {
  /** The header's revision: the store's revision the range was read at. */
  revision: number;
  kvs: RawKeyValue[];
  more: boolean;
  count: number;
}

export interface RawTxnResult {
  revision: number;
  succeeded: boolean;
  /** One per operation; the ranges' results (a Txn of ranges only). */
  ranges: RawRangeResult[];
}

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;

function writeRange(w: protobuf.Writer, r: RawRange): protobuf.Writer {
  w.uint32((1 << 3) | WIRE_BYTES).bytes(r.key);
  if (r.rangeEnd) w.uint32((2 << 3) | WIRE_BYTES).bytes(r.rangeEnd);
  if (r.limit) w.uint32((3 << 3) | WIRE_VARINT).int64(r.limit);
  if (r.revision) w.uint32((4 << 3) | WIRE_VARINT).int64(r.revision);
  if (r.keysOnly) w.uint32((8 << 3) | WIRE_VARINT).bool(true);
  return w;
}

/** A RangeRequest's bytes. */
export function encodeRange(r: RawRange): Buffer {
  return Buffer.from(writeRange(protobuf.Writer.create(), r).finish());
}

/** A TxnRequest with no compares whose success operations are these ranges (read-only: etcd serves it as one linearizable read). */
export function encodeReadTxn(ranges: RawRange[]): Buffer {
  const w = protobuf.Writer.create();
  for (const r of ranges) {
    // success (2): RequestOp { request_range (1): RangeRequest }
    w.uint32((2 << 3) | WIRE_BYTES).fork();
    w.uint32((1 << 3) | WIRE_BYTES).fork();
    writeRange(w, r);
    w.ldelim().ldelim();
  }
  return Buffer.from(w.finish());
}

/**
 * An int64 that is a revision, version or count: non-negative and below 2^53 in any etcd, read as
 * a number from its varint (Reader.int64 builds a Long for each).
 */
function int64(r: protobuf.Reader): number {
  const { buf } = r;
  let pos = r.pos;
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= r.len) throw new RangeError('etcd answer: a varint runs past the message');
    const b = buf[pos++];
    value += (b & 0x7f) * scale;
    if (b < 0x80) {
      r.pos = pos;
      return value;
    }
    scale *= 128;
  }
  throw new RangeError('etcd answer: a varint longer than 10 bytes');
}

/** ResponseHeader's revision (3). */
function headerRevision(r: protobuf.Reader, end: number): number {
  let revision = 0;
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag >>> 3 === 3 && (tag & 7) === WIRE_VARINT) revision = int64(r);
    else r.skipType(tag & 7);
  }
  return revision;
}

function keyValue(r: protobuf.Reader, end: number, buf: Buffer): RawKeyValue {
  const kv: RawKeyValue = { key: EMPTY, value: EMPTY, createRevision: 0, modRevision: 0, version: 0 };
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag) {
      case (1 << 3) | WIRE_BYTES:
        kv.key = bytesOf(r, buf);
        break;
      case (2 << 3) | WIRE_VARINT:
        kv.createRevision = int64(r);
        break;
      case (3 << 3) | WIRE_VARINT:
        kv.modRevision = int64(r);
        break;
      case (4 << 3) | WIRE_VARINT:
        kv.version = int64(r);
        break;
      case (5 << 3) | WIRE_BYTES:
        kv.value = bytesOf(r, buf);
        break;
      default:
        r.skipType(tag & 7);
    }
  }
  return kv;
}

const EMPTY = Buffer.alloc(0);

/**
 * A bytes field as its own copy: a view into the message would keep the whole answer (a list's
 * megabytes) alive for as long as any one value is held, e.g. by a cache.
 */
function bytesOf(r: protobuf.Reader, buf: Buffer): Buffer {
  const len = r.uint32();
  const start = r.pos;
  r.pos += len;
  if (r.pos > r.len) throw new RangeError('etcd answer: a field runs past the message');
  return Buffer.from(buf.subarray(start, start + len));
}

function rangeResult(r: protobuf.Reader, end: number, buf: Buffer): RawRangeResult {
  const out: RawRangeResult = { revision: 0, kvs: [], more: false, count: 0 };
  while (r.pos < end) {
    const tag = r.uint32();
    switch (tag) {
      case (1 << 3) | WIRE_BYTES: {
        const len = r.uint32();
        out.revision = headerRevision(r, r.pos + len);
        break;
      }
      case (2 << 3) | WIRE_BYTES: {
        const len = r.uint32();
        out.kvs.push(keyValue(r, r.pos + len, buf));
        break;
      }
      case (3 << 3) | WIRE_VARINT:
        out.more = r.bool();
        break;
      case (4 << 3) | WIRE_VARINT:
        out.count = int64(r);
        break;
      default:
        r.skipType(tag & 7);
    }
  }
  return out;
}

/** A RangeResponse. */
export function decodeRange(buf: Buffer): RawRangeResult {
  const r = protobuf.Reader.create(buf);
  return rangeResult(r, buf.length, buf);
}

/** A TxnResponse of range operations (another operation's answer is an error: this codec is for reads). */
export function decodeReadTxn(buf: Buffer): RawTxnResult {
  const r = protobuf.Reader.create(buf);
  const out: RawTxnResult = { revision: 0, succeeded: false, ranges: [] };
  while (r.pos < buf.length) {
    const tag = r.uint32();
    switch (tag) {
      case (1 << 3) | WIRE_BYTES: {
        const len = r.uint32();
        out.revision = headerRevision(r, r.pos + len);
        break;
      }
      case (2 << 3) | WIRE_VARINT:
        out.succeeded = r.bool();
        break;
      case (3 << 3) | WIRE_BYTES: {
        // ResponseOp { response_range (1): RangeResponse }
        const end = r.uint32() + r.pos;
        let range: RawRangeResult | undefined;
        while (r.pos < end) {
          const inner = r.uint32();
          if (inner !== ((1 << 3) | WIRE_BYTES))
            throw new Error(`etcd answer: a read transaction answered an operation other than a range (tag ${inner})`);
          const len = r.uint32();
          range = rangeResult(r, r.pos + len, buf);
        }
        out.ranges.push(range ?? { revision: 0, kvs: [], more: false, count: 0 });
        break;
      }
      default:
        r.skipType(tag & 7);
    }
  }
  return out;
}
