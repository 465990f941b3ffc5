/**
 * The HTTP/2 unary client the etcd storage reads and writes with (storage/etcd3/h2-unary.ts), against
 * a real etcd: answers decoded, etcd's own errors as the etcd3 client reports them, a host that is
 * not there as a recoverable UNAVAILABLE its breaker then refuses, a silent host as DEADLINE_EXCEEDED.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { circuitBreaker, ConsecutiveBreaker, handleAll, isBrokenCircuitError } from 'cockatiel';
import { GRPCDeadlineExceededError, GRPCOutOfRangeError, GRPCUnavailableError, isRecoverableError } from 'etcd3';
import { H2UnaryClient } from '../../../apiserver/storage/etcd3/h2-unary.js';
import { decodeRange, decodeTxn, encodeRange, encodeTxn } from '../../../apiserver/storage/etcd3/raw-kv.js';
import { freePorts } from '../../support/free-ports.js';
import { useEtcd } from '../../support/etcd.js';

const breaker = () => circuitBreaker(handleAll, { halfOpenAfter: 60_000, breaker: new ConsecutiveBreaker(2) });
const RANGE = '/etcdserverpb.KV/Range';
const TXN = '/etcdserverpb.KV/Txn';

describe('the HTTP/2 unary etcd client', () => {
  const endpoint = useEtcd();

  it('writes and reads through etcd, large answers included', async () => {
    const c = new H2UnaryClient([endpoint()], breaker);
    try {
      // Three values of 1 MiB (etcd takes requests up to 1.5 MiB), read back as one answer of 3 MiB:
      // far past HTTP/2's default 64 KiB windows.
      const value = Buffer.alloc(1024 * 1024, 'v');
      let revision = 0;
      for (const k of ['h2/a', 'h2/b', 'h2/c'])
        revision = decodeTxn(await c.call(TXN, encodeTxn({ success: [{ put: { key: Buffer.from(k), value } }] }), 5000)).revision;
      assert.ok(revision > 1);
      const got = decodeRange(await c.call(RANGE, encodeRange({ key: Buffer.from('h2/'), rangeEnd: Buffer.from('h20') }), 5000));
      assert.deepEqual(
        got.kvs.map((kv) => kv.key.toString()),
        ['h2/a', 'h2/b', 'h2/c'],
      );
      for (const kv of got.kvs) assert.ok(kv.value.equals(value));
      assert.equal(got.revision, revision);
      // Many at once on the one session.
      const all = await Promise.all(
        Array.from({ length: 200 }, () => c.call(RANGE, encodeRange({ key: Buffer.from('h2/a'), countOnly: true }), 5000)),
      );
      for (const a of all) assert.equal(decodeRange(a).count, 1);
    } finally {
      c.close();
    }
  });

  it("reports etcd's own errors as the etcd3 client does", async () => {
    const c = new H2UnaryClient([endpoint()], breaker);
    try {
      const err = await c.call(RANGE, encodeRange({ key: Buffer.from('h2/a'), revision: 1_000_000 }), 5000).then(
        () => assert.fail('a future revision was read'),
        (e: Error) => e,
      );
      // grpc-js' form of the same answer: the status by code, etcd's message kept whole.
      assert.ok(err instanceof GRPCOutOfRangeError, `${err.constructor.name}: ${err.message}`);
      assert.match(err.message, /etcdserver: mvcc: required revision is a future revision/);
      assert.equal(isRecoverableError(err), false);
    } finally {
      c.close();
    }
  });

  it('a host that is not there: UNAVAILABLE, recoverable, then refused by its breaker; the next host serves', async () => {
    const [port] = await freePorts(1);
    const gone = new H2UnaryClient([`http://127.0.0.1:${port}`], breaker);
    try {
      for (let i = 0; i < 2; i++) {
        const err = await gone.call(RANGE, encodeRange({ key: Buffer.from('x') }), 5000).catch((e: Error) => e);
        assert.ok(err instanceof GRPCUnavailableError, String(err));
        assert.ok(isRecoverableError(err));
      }
      const refused = await gone.call(RANGE, encodeRange({ key: Buffer.from('x') }), 5000).catch((e: unknown) => e);
      assert.ok(isBrokenCircuitError(refused), String(refused));
    } finally {
      gone.close();
    }
    const both = new H2UnaryClient([`http://127.0.0.1:${port}`, endpoint()], breaker);
    try {
      let served = 0;
      for (let i = 0; i < 12; i++) {
        const r = await both.call(RANGE, encodeRange({ key: Buffer.from('h2/a'), countOnly: true }), 5000).catch(() => undefined);
        if (r) served++;
      }
      // The dead host fails at most twice before its breaker opens; after that every call goes to etcd.
      assert.ok(served >= 10, `${served} of 12 served`);
    } finally {
      both.close();
    }
  });

  it('a host that accepts and never answers: DEADLINE_EXCEEDED after the deadline', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    const c = new H2UnaryClient([`http://127.0.0.1:${port}`], breaker);
    try {
      const t0 = performance.now();
      const err = await c.call(RANGE, encodeRange({ key: Buffer.from('x') }), 300).catch((e: Error) => e);
      assert.ok(err instanceof GRPCDeadlineExceededError, String(err));
      assert.ok(performance.now() - t0 < 3000);
    } finally {
      c.close();
      silent.close();
    }
  });
});
