import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import protobuf from 'protobufjs';
import { decodeRange, decodeTxn, encodeRange, encodeTxn, rangesOf } from '../../../../apiserver/storage/etcd3/raw-kv.js';

// etcd's own message definitions, as the etcd3 client ships them: the oracle for the hand codec.
const require = createRequire(import.meta.url);
const root = new protobuf.Root().loadSync(join(dirname(require.resolve('etcd3/package.json')), 'proto', 'rpc.proto'), { keepCase: true });
const RangeRequest = root.lookupType('etcdserverpb.RangeRequest');
const TxnRequest = root.lookupType('etcdserverpb.TxnRequest');
const RangeResponse = root.lookupType('etcdserverpb.RangeResponse');
const TxnResponse = root.lookupType('etcdserverpb.TxnResponse');

const header = (revision: number) => ({
  cluster_id: 14841639068965178418n.toString(),
  member_id: '10276657743932975437',
  revision,
  raft_term: 7,
});
const kv = (i: number) => ({
  key: Buffer.from(`/registry/configmaps/default/cm-${i}`),
  create_revision: 1000 + i,
  mod_revision: 2 ** 40 + i,
  version: i + 1,
  value: Buffer.from(JSON.stringify({ i, pad: 'x'.repeat(i * 37) })),
  lease: i % 2 ? 7587862095232478000 : 0,
});

test('a range request encodes as etcd decodes it', () => {
  const key = Buffer.from('/registry/pods/');
  const rangeEnd = Buffer.from('/registry/pods0');
  const decoded = RangeRequest.toObject(
    RangeRequest.decode(encodeRange({ key, rangeEnd, limit: 500, revision: 2 ** 41 + 3, keysOnly: true })),
    {
      longs: Number,
    },
  );
  assert.deepEqual(decoded, { key, range_end: rangeEnd, limit: 500, revision: 2 ** 41 + 3, keys_only: true });
  assert.deepEqual(RangeRequest.toObject(RangeRequest.decode(encodeRange({ key })), { longs: Number }), { key });
  const sorted = RangeRequest.toObject(
    RangeRequest.decode(encodeRange({ key, rangeEnd, keysOnly: true, newestCreatedFirst: true, maxCreateRevision: 77, limit: 51 })),
    { longs: Number, enums: String },
  );
  assert.deepEqual(sorted, {
    key,
    range_end: rangeEnd,
    limit: 51,
    sort_order: 'Descend',
    sort_target: 'Create',
    keys_only: true,
    max_create_revision: 77,
  });
});

test('a read transaction encodes as success ranges, nothing else', () => {
  const ranges = [{ key: Buffer.from('/a'), revision: 9 }, { key: Buffer.from('/b') }];
  const decoded = TxnRequest.toObject(TxnRequest.decode(encodeTxn({ success: ranges.map((range) => ({ range })) })), { longs: Number });
  assert.deepEqual(decoded, {
    success: [{ request_range: { key: Buffer.from('/a'), revision: 9 } }, { request_range: { key: Buffer.from('/b') } }],
  });
});

test("a range answer decodes to etcd's values: keys, values, revisions, more and count", () => {
  const kvs = Array.from({ length: 40 }, (_, i) => kv(i));
  const bytes = Buffer.from(
    RangeResponse.encode(RangeResponse.fromObject({ header: header(2 ** 40 + 99), kvs, more: true, count: 12345 })).finish(),
  );
  const r = decodeRange(bytes);
  assert.equal(r.revision, 2 ** 40 + 99);
  assert.equal(r.more, true);
  assert.equal(r.count, 12345);
  assert.deepEqual(
    r.kvs,
    kvs.map((k) => ({ key: k.key, value: k.value, createRevision: k.create_revision, modRevision: k.mod_revision, version: k.version })),
  );
  // Values are copies: holding one keeps none of the answer's other bytes.
  assert.notEqual(r.kvs[0].value.buffer, bytes.buffer);
  const empty = decodeRange(Buffer.from(RangeResponse.encode(RangeResponse.fromObject({ header: header(5) })).finish()));
  assert.deepEqual(empty, { revision: 5, kvs: [], more: false, count: 0 });
});

test("a read transaction's answer decodes to one result per range, empty ones included", () => {
  const responses = [[kv(1)], [], [kv(2), kv(3)]].map((kvs) => ({ response_range: { header: header(77), kvs, count: kvs.length } }));
  const bytes = Buffer.from(TxnResponse.encode(TxnResponse.fromObject({ header: header(78), succeeded: true, responses })).finish());
  const t = decodeTxn(bytes);
  const r = { ...t, ranges: rangesOf(t) };
  assert.equal(r.revision, 78);
  assert.equal(r.succeeded, true);
  assert.deepEqual(
    r.ranges.map((x) => x.kvs.map((k) => k.key.toString())),
    [['/registry/configmaps/default/cm-1'], [], ['/registry/configmaps/default/cm-2', '/registry/configmaps/default/cm-3']],
  );
  assert.deepEqual(
    r.ranges.map((x) => x.count),
    [1, 0, 2],
  );
});

test('a truncated or foreign answer is an error, not a wrong value', () => {
  const bytes = Buffer.from(RangeResponse.encode(RangeResponse.fromObject({ header: header(5), kvs: [kv(3)] })).finish());
  assert.throws(() => decodeRange(bytes.subarray(0, bytes.length - 4)), RangeError);
  const nested = Buffer.from(
    TxnResponse.encode(
      TxnResponse.fromObject({ header: header(5), succeeded: true, responses: [{ response_txn: { header: header(5) } }] }),
    ).finish(),
  );
  assert.throws(() => decodeTxn(nested), /does not send/);
});

test('a write transaction encodes its compares (a 0 target included), puts with leases, deletes and failure ranges as etcd decodes them', () => {
  const k = Buffer.from('/registry/configmaps/default/a');
  const bytes = encodeTxn({
    compare: [
      { key: k, target: 'create', result: 'greater', value: 0 },
      { key: k, target: 'mod', result: 'equal', value: 2 ** 40 + 1 },
      { key: k, target: 'version', result: 'notEqual', value: 3 },
    ],
    success: [
      { put: { key: k, value: Buffer.from('{}'), lease: '7587862095232478001' } },
      { put: { key: Buffer.from('/idx'), value: Buffer.alloc(0) } },
      { range: { key: k, keysOnly: true } },
      { deleteRange: { key: Buffer.from('/b'), prevKv: true } },
    ],
    failure: [{ range: { key: k, countOnly: true } }],
  });
  const decoded = TxnRequest.toObject(TxnRequest.decode(bytes), { longs: String, enums: String, defaults: false, oneofs: true });
  assert.deepEqual(decoded, {
    compare: [
      { result: 'Greater', key: k, create_revision: '0', target_union: 'create_revision', target: 'Create' },
      { key: k, mod_revision: String(2 ** 40 + 1), target_union: 'mod_revision', target: 'Mod' },
      { result: 'NotEqual', key: k, version: '3', target_union: 'version' },
    ],
    success: [
      { request_put: { key: k, value: Buffer.from('{}'), lease: '7587862095232478001' }, request: 'request_put' },
      { request_put: { key: Buffer.from('/idx') }, request: 'request_put' },
      { request_range: { key: k, keys_only: true }, request: 'request_range' },
      { request_delete_range: { key: Buffer.from('/b'), prev_kv: true }, request: 'request_delete_range' },
    ],
    failure: [{ request_range: { key: k, count_only: true }, request: 'request_range' }],
  });
});

test("a write transaction's answer: the header's revision, a put's prev_kv, a delete's count and prev_kvs", () => {
  const responses = [
    { response_put: { header: header(90), prev_kv: kv(4) } },
    { response_put: { header: header(90) } },
    { response_delete_range: { header: header(90), deleted: 1, prev_kvs: [kv(5)] } },
    { response_range: { header: header(90), kvs: [kv(6)], count: 1 } },
  ];
  const t = decodeTxn(Buffer.from(TxnResponse.encode(TxnResponse.fromObject({ header: header(90), succeeded: true, responses })).finish()));
  assert.equal(t.revision, 90);
  assert.equal(t.succeeded, true);
  assert.deepEqual(
    t.responses[0].prevKvs.map((x) => x.key.toString()),
    ['/registry/configmaps/default/cm-4'],
  );
  assert.deepEqual(t.responses[1], { prevKvs: [], deleted: 0 });
  assert.equal(t.responses[2].deleted, 1);
  assert.equal(t.responses[2].prevKvs[0].modRevision, 2 ** 40 + 5);
  assert.equal(t.responses[3].range?.kvs[0].createRevision, 1006);
  const failed = decodeTxn(Buffer.from(TxnResponse.encode(TxnResponse.fromObject({ header: header(91), responses: [] })).finish()));
  assert.deepEqual(failed, { revision: 91, succeeded: false, responses: [] });
});
