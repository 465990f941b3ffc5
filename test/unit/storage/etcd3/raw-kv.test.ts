import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import protobuf from 'protobufjs';
import { decodeRange, decodeReadTxn, encodeRange, encodeReadTxn } from '../../../../apiserver/storage/etcd3/raw-kv.js';

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
});

test('a read transaction encodes as success ranges, nothing else', () => {
  const ranges = [{ key: Buffer.from('/a'), revision: 9 }, { key: Buffer.from('/b') }];
  const decoded = TxnRequest.toObject(TxnRequest.decode(encodeReadTxn(ranges)), { longs: Number });
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
  const r = decodeReadTxn(bytes);
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
  const put = Buffer.from(
    TxnResponse.encode(
      TxnResponse.fromObject({ header: header(5), succeeded: true, responses: [{ response_put: { header: header(5) } }] }),
    ).finish(),
  );
  assert.throws(() => decodeReadTxn(put), /other than a range/);
});
