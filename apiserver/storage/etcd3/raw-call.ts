/**
 * Requests sent with raw-kv.ts's codec on HTTP/2 sessions of their own (h2-unary.ts), under the same
 * retry budget as every other request (the etcd3 client's global policy) and a breaker per host as
 * the etcd3 client keeps them. orch gives etcd no user or password, so there is no auth token to send.
 */
import type { BudgetedRetryPolicy } from './budgeted-retry.js';
import type { H2UnaryClient } from './h2-unary.js';
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

export class RawKvClient {
  constructor(
    private readonly transport: H2UnaryClient,
    private readonly policy: BudgetedRetryPolicy,
    private readonly deadlineMs: number,
  ) {}

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
    return this.policy.execute(() => this.transport.call(method, request, this.deadlineMs));
  }

  close(): void {
    this.transport.close();
  }
}
