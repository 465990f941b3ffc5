/**
 * Requests sent with raw-kv.ts's codec on the etcd3 client's own connections: the same hosts, breakers
 * and retry budget as every other request (the client's pool and its global policy), only the
 * message encoding differs. The pool is the client's (not exported by etcd3, hence the structural
 * types below: etcd3 1.1's ConnectionPool.withConnection and grpc-js's Client.makeUnaryRequest). orch
 * gives etcd no user or password, so etcd3's auth-token refresh has nothing to do on this path.
 */
import { castGrpcError, type Etcd3 } from 'etcd3';
import type { BudgetedRetryPolicy } from './budgeted-retry.js';
import {
  decodeRange,
  decodeTxn,
  encodeRange,
  encodeTxn,
  type RawRange,
  type RawRangeResult,
  type RawTxn,
  type RawTxnResult,
} from './raw-kv.js';

interface UnaryClient {
  makeUnaryRequest(
    method: string,
    serialize: (value: Buffer) => Buffer,
    deserialize: (bytes: Buffer) => unknown,
    argument: Buffer,
    metadata: unknown,
    options: { deadline?: number },
    callback: (err: Error | null, value?: unknown) => void,
  ): unknown;
}

interface Pool {
  withConnection<T>(service: 'KV', fn: (connection: { client: UnaryClient; metadata: unknown }) => Promise<T>): Promise<T>;
}

const identity = (b: Buffer) => b;

export class RawKvClient {
  private readonly pool: Pool;

  constructor(
    client: Etcd3,
    private readonly policy: BudgetedRetryPolicy,
    private readonly deadlineMs: number,
  ) {
    // etcd3 keeps its ConnectionPool on the client as `pool` (lib/index.js); see the header.
    this.pool = (client as unknown as { pool: Pool }).pool;
  }

  range(range: RawRange): Promise<RawRangeResult> {
    return this.call('/etcdserverpb.KV/Range', encodeRange(range)).then(decodeRange);
  }

  txn(txn: RawTxn): Promise<RawTxnResult> {
    return this.call('/etcdserverpb.KV/Txn', encodeTxn(txn)).then(decodeTxn);
  }

  /** A transaction of ranges only, read at once (etcd: one linearizable read). */
  readTxn(ranges: RawRange[]): Promise<RawTxnResult> {
    return this.txn({ success: ranges.map((range) => ({ range })) });
  }

  private call(method: string, request: Buffer): Promise<Buffer> {
    return this.policy.execute(() =>
      this.pool.withConnection(
        'KV',
        ({ client, metadata }) =>
          new Promise<Buffer>((resolve, reject) => {
            client.makeUnaryRequest(
              method,
              identity,
              identity,
              request,
              metadata,
              { deadline: Date.now() + this.deadlineMs },
              (err, value) => (err ? reject(castGrpcError(err)) : resolve(value as Buffer)),
            );
          }),
      ),
    );
  }
}
