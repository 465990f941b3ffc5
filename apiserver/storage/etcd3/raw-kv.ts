/**
 * etcd's KV requests orch makes (Range, and Txn of compares, ranges, puts and deletes) encoded and
 * decoded by hand, sent on HTTP/2 sessions of their own (raw-call.ts, h2-unary.ts). The client's codec
 * (@grpc/proto-loader) builds every message as a plain object: each KeyValue's four int64s as Long
 * and then as decimal strings, every default field set. For a history page (a Txn of 101 Ranges)
 * that was ~1 ms of the server's ~3.5 ms. Here an answer decodes to numbers and Buffers straight from
 * the wire, and only the fields orch reads: a range's key-values, `more` and `count`, a put's
 * prev_kv, a delete's prev_kvs, and the header's revision. Field numbers are etcd's
 * api/etcdserverpb/rpc.proto and mvccpb/kv.proto.
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
  countOnly?: boolean;
  /** Newest createRevision first, only those at or below maxCreateRevision (etcd reads every key of the range to sort). */
  newestCreatedFirst?: boolean;
  maxCreateRevision?: number;
}

/** etcdserverpb.Compare of a key's version, createRevision or modRevision with a number. */
export interface RawCompare {
  key: Buffer;
  target: 'version' | 'create' | 'mod';
  result: 'equal' | 'greater' | 'less' | 'notEqual';
  value: number;
}

export interface RawPut {
  key: Buffer;
  value: Buffer;
  /** A lease ID (etcd3's leases are decimal strings). */
  lease?: string;
  prevKv?: boolean;
}

export interface RawDelete {
  key: Buffer;
  prevKv?: boolean;
}

export type RawOp = { range: RawRange } | { put: RawPut } | { deleteRange: RawDelete };

export interface RawTxn {
  compare?: RawCompare[];
  success: RawOp[];
  failure?: RawOp[];
}

/** One operation's answer: a range's result, or the previous key-values of a put (0 or 1) or a delete. */
export interface RawOpResult {
  range?: RawRangeResult;
  prevKvs: RawKeyValue[];
  deleted: number;
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
  /** One per operation of the branch that ran. */
  responses: RawOpResult[];
}

const WIRE_VARINT = 0;
const WIRE_BYTES = 2;

function writeRange(w: protobuf.Writer, r: RawRange): protobuf.Writer {
  w.uint32((1 << 3) | WIRE_BYTES).bytes(r.key);
  if (r.rangeEnd) w.uint32((2 << 3) | WIRE_BYTES).bytes(r.rangeEnd);
  if (r.limit) w.uint32((3 << 3) | WIRE_VARINT).int64(r.limit);
  if (r.revision) w.uint32((4 << 3) | WIRE_VARINT).int64(r.revision);
  if (r.newestCreatedFirst) {
    // sort_order (5) DESCEND = 2, sort_target (6) CREATE = 2.
    w.uint32((5 << 3) | WIRE_VARINT).int32(2);
    w.uint32((6 << 3) | WIRE_VARINT).int32(2);
  }
  if (r.keysOnly) w.uint32((8 << 3) | WIRE_VARINT).bool(true);
  if (r.countOnly) w.uint32((9 << 3) | WIRE_VARINT).bool(true);
  if (r.maxCreateRevision) w.uint32((13 << 3) | WIRE_VARINT).int64(r.maxCreateRevision);
  return w;
}

const TARGETS = { version: 0, create: 1, mod: 2 } as const;
const RESULTS = { equal: 0, greater: 1, less: 2, notEqual: 3 } as const;
/** The target_union field holding each target's number. */
const UNION_FIELDS = { version: 4, create: 5, mod: 6 } as const;

function writeCompare(w: protobuf.Writer, c: RawCompare): void {
  w.uint32((1 << 3) | WIRE_BYTES).fork();
  if (RESULTS[c.result]) w.uint32((1 << 3) | WIRE_VARINT).int32(RESULTS[c.result]);
  if (TARGETS[c.target]) w.uint32((2 << 3) | WIRE_VARINT).int32(TARGETS[c.target]);
  w.uint32((3 << 3) | WIRE_BYTES).bytes(c.key);
  // A oneof member is sent even when 0: it names the target's field.
  w.uint32((UNION_FIELDS[c.target] << 3) | WIRE_VARINT).int64(c.value);
  w.ldelim();
}

function writeOp(w: protobuf.Writer, field: number, op: RawOp): void {
  w.uint32((field << 3) | WIRE_BYTES).fork();
  if ('range' in op) {
    w.uint32((1 << 3) | WIRE_BYTES).fork();
    writeRange(w, op.range);
  } else if ('put' in op) {
    const p = op.put;
    w.uint32((2 << 3) | WIRE_BYTES).fork();
    w.uint32((1 << 3) | WIRE_BYTES).bytes(p.key);
    if (p.value.length > 0) w.uint32((2 << 3) | WIRE_BYTES).bytes(p.value);
    if (p.lease && p.lease !== '0') w.uint32((3 << 3) | WIRE_VARINT).int64(p.lease);
    if (p.prevKv) w.uint32((4 << 3) | WIRE_VARINT).bool(true);
  } else {
    const d = op.deleteRange;
    w.uint32((3 << 3) | WIRE_BYTES).fork();
    w.uint32((1 << 3) | WIRE_BYTES).bytes(d.key);
    if (d.prevKv) w.uint32((3 << 3) | WIRE_VARINT).bool(true);
  }
  w.ldelim().ldelim();
}

/** A TxnRequest's bytes. */
export function encodeTxn(t: RawTxn): Buffer {
  const w = protobuf.Writer.create();
  for (const c of t.compare ?? []) writeCompare(w, c);
  for (const op of t.success) writeOp(w, 2, op);
  for (const op of t.failure ?? []) writeOp(w, 3, op);
  return Buffer.from(w.finish());
}

/** A RangeRequest's bytes. */
export function encodeRange(r: RawRange): Buffer {
  return Buffer.from(writeRange(protobuf.Writer.create(), r).finish());
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
      case (1 << 3) | WIRE_BYTES:
        out.revision = headerRevision(r, r.uint32() + r.pos);
        break;
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

/** PutResponse (prev_kv 2) or DeleteRangeResponse (deleted 2, prev_kvs 3). */
function writeResult(r: protobuf.Reader, end: number, buf: Buffer, isDelete: boolean): RawOpResult {
  const out: RawOpResult = { prevKvs: [], deleted: 0 };
  while (r.pos < end) {
    const tag = r.uint32();
    if (tag === ((2 << 3) | WIRE_BYTES) && !isDelete) {
      const len = r.uint32();
      out.prevKvs.push(keyValue(r, r.pos + len, buf));
    } else if (tag === ((2 << 3) | WIRE_VARINT) && isDelete) {
      out.deleted = int64(r);
    } else if (tag === ((3 << 3) | WIRE_BYTES) && isDelete) {
      const len = r.uint32();
      out.prevKvs.push(keyValue(r, r.pos + len, buf));
    } else {
      r.skipType(tag & 7);
    }
  }
  return out;
}

/** A TxnResponse (a nested transaction's answer is an error: orch sends none). */
export function decodeTxn(buf: Buffer): RawTxnResult {
  const r = protobuf.Reader.create(buf);
  const out: RawTxnResult = { revision: 0, succeeded: false, responses: [] };
  while (r.pos < buf.length) {
    const tag = r.uint32();
    switch (tag) {
      case (1 << 3) | WIRE_BYTES:
        out.revision = headerRevision(r, r.uint32() + r.pos);
        break;
      case (2 << 3) | WIRE_VARINT:
        out.succeeded = r.bool();
        break;
      case (3 << 3) | WIRE_BYTES: {
        // ResponseOp { response_range (1) | response_put (2) | response_delete_range (3) }
        const end = r.uint32() + r.pos;
        let op: RawOpResult = { prevKvs: [], deleted: 0 };
        while (r.pos < end) {
          const inner = r.uint32();
          const len = r.uint32();
          if (inner === ((1 << 3) | WIRE_BYTES)) op = { range: rangeResult(r, r.pos + len, buf), prevKvs: [], deleted: 0 };
          else if (inner === ((2 << 3) | WIRE_BYTES)) op = writeResult(r, r.pos + len, buf, false);
          else if (inner === ((3 << 3) | WIRE_BYTES)) op = writeResult(r, r.pos + len, buf, true);
          else throw new Error(`etcd answer: an operation orch does not send (tag ${inner})`);
        }
        out.responses.push(op);
        break;
      }
      default:
        r.skipType(tag & 7);
    }
  }
  return out;
}

/** The results of a transaction of ranges, one per range. */
export function rangesOf(t: RawTxnResult): RawRangeResult[] {
  return t.responses.map((op) => op.range ?? { revision: 0, kvs: [], more: false, count: 0 });
}
