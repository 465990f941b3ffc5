import { Etcd3 } from 'etcd3';
import type { Logger } from 'winston';
import { StorageError } from '../errors.js';
import {
  type AlongsideHistory,
  type BatchCreate,
  type HistoryPageOptions,
  type KeyValue,
  type ListOptions,
  type ListResult,
  MAX_BATCH_CREATES,
  type Storage,
  type StorageWatcher,
  type WatchHandlers,
  type WatchOptions,
  type WriteOptions,
} from '../interfaces.js';
import { listRange } from '../key-range.js';
import type { WatchSink } from '../watch-sink.js';
import { type IndexReader, newIndexKey, readAlongsideHistory } from './alongside-index.js';
import { fromRaw } from './convert.js';
import { etcdErrorKind } from './error-kind.js';
import { etcdFaultHandling, perTryDeadlineMs } from './fault-handling.js';
import { HistoryBytes } from './history-bytes.js';
import { LeaseManager } from './leases.js';
import { findOldestReadable } from './oldest-readable.js';
import { RawKvClient } from './raw-call.js';
import { H2UnaryClient } from './h2-unary.js';
import { type RawCompare, type RawKeyValue, type RawOp, rangesOf } from './raw-kv.js';
import { ReadBatcher } from './read-batch.js';
import { watchEtcd } from './watch.js';

export interface EtcdStorageOptions {
  /** Client URLs, e.g. ['http://127.0.0.1:2379']. */
  endpoints: string[];
  logger?: Logger;
  /** Deadline of each unary request (watches have none); default 10 s. */
  requestTimeoutMs?: number;
}

/** Any key does for requests that only want a response header; this one is never written. */
const PROBE_KEY = Buffer.from([0]);
const EMPTY = Buffer.alloc(0);

/**
 * Storage on etcd v3. Keys are used exactly as given. Every write is one transaction that compares
 * revisions, so compare-and-swap is atomic in etcd; the write's header revision is the new
 * modRevision. Errors: etcd's revision errors become 'Compacted' / 'FutureRevision', connection
 * trouble 'Unavailable'.
 *
 * compactedRevision(): etcd keeps its compacted revision to itself, so it is found by probing
 * (see oldest-readable.ts) from the highest compaction this instance knows of (its own compact()
 * calls and compactions its watches reported): one count-only range when nothing new was compacted,
 * a short binary search after a compaction by someone else (another replica's compactor, etcdctl,
 * etcd's auto-compaction). It is therefore exact whoever compacted.
 *
 * Fault handling (retries within one time budget, a breaker per host): see fault-handling.ts. A
 * retried write whose first attempt did commit reports KeyExists/Conflict; guaranteedUpdate re-reads
 * and converges.
 */
export function newEtcdStorage(options: EtcdStorageOptions): Storage {
  const timeoutMs = options.requestTimeoutMs ?? 10_000;
  const faults = etcdFaultHandling(timeoutMs);
  const client = new Etcd3({
    hosts: options.endpoints,
    // Lists and watch replays can be large; etcd itself bounds request sizes.
    grpcOptions: { 'grpc.max_receive_message_length': -1 },
    defaultCallOptions: (context) => (context.isStream ? {} : { deadline: Date.now() + perTryDeadlineMs(timeoutMs) }),
    ...faults,
  });
  const transport = new H2UnaryClient(options.endpoints, faults.faultHandling.host);
  return new EtcdStorage(client, new RawKvClient(transport, faults.faultHandling.global, perTryDeadlineMs(timeoutMs)), options.logger);
}

class EtcdStorage implements Storage {
  private readonly watches = new Set<WatchSink>();
  /** The highest revision this instance knows etcd compacted to (a lower bound of the real one). */
  private knownCompacted = 0;
  private readonly leases: LeaseManager;
  private readonly reads = new ReadBatcher((keys) => this.readKeys(keys));
  /** History's bytes, tracked from the first historyBoundRevision call on. */
  private readonly historyBytes = new HistoryBytes(this);

  constructor(
    private readonly client: Etcd3,
    /** Reads and writes with a codec of their own (raw-kv.ts); watches, leases and compaction go through the etcd3 client. */
    private readonly raw: RawKvClient,
    private readonly logger: Logger | undefined,
  ) {
    this.leases = new LeaseManager(client);
    this.indexReader = {
      raw,
      knownCompacted: () => this.knownCompacted,
      compactedRevision: () => this.compactedRevision(),
      call: (key, request, revision) => this.call(key, request, revision),
    };
  }

  async create(key: string, value: Buffer, options?: WriteOptions): Promise<KeyValue> {
    const k = Buffer.from(key);
    const lease = await this.leaseOf(key, options);
    const side = await this.alongside(options);
    const res = await this.call(key, () =>
      this.raw.txn({
        compare: [{ key: k, target: 'create', result: 'equal', value: 0 }],
        success: [{ put: { key: k, value, lease } }, ...side],
      }),
    );
    if (!res.succeeded) throw new StorageError('KeyExists', key);
    return { key, value, createRevision: res.revision, modRevision: res.revision };
  }

  async createBatch(creates: BatchCreate[]): Promise<KeyValue[]> {
    if (creates.length === 0) return [];
    if (creates.length > MAX_BATCH_CREATES) throw new Error(`storage: a batch holds at most ${MAX_BATCH_CREATES} creates`);
    const first = creates[0].key;
    const puts: RawOp[] = [];
    for (const c of creates) {
      puts.push({ put: { key: Buffer.from(c.key), value: c.value, lease: await this.leaseOf(c.key, c.options) } });
      puts.push(...(await this.alongside(c.options)));
    }
    const res = await this.call(first, () =>
      this.raw.txn({
        compare: creates.map((c) => ({ key: Buffer.from(c.key), target: 'create' as const, result: 'equal' as const, value: 0 })),
        success: puts,
        // Which keys are present, to name the first.
        failure: creates.map((c) => ({ range: { key: Buffer.from(c.key), countOnly: true } })),
      }),
    );
    if (!res.succeeded) {
      const taken = rangesOf(res).findIndex((r) => r.count > 0);
      throw new StorageError('KeyExists', creates[Math.max(taken, 0)].key);
    }
    return creates.map((c) => ({ key: c.key, value: c.value, createRevision: res.revision, modRevision: res.revision }));
  }

  /** The put of a write's alongside key (WriteOptions.alongside), in the write's own txn; with its TTL, on a lease. */
  private async alongside(options: Pick<WriteOptions, 'alongside'> | undefined): Promise<RawOp[]> {
    const side = options?.alongside;
    if (!side) return [];
    const lease = side.ttlSeconds ? await this.call(side.key, () => this.leases.leaseFor(side.ttlSeconds!)) : undefined;
    const put: RawOp = { put: { key: Buffer.from(side.key), value: side.value, lease } };
    if (!side.indexSeconds) return [put];
    // The write's entry in the alongside index (alongside-index.ts), kept as long as asked.
    const indexLease = await this.call(side.key, () => this.leases.leaseFor(side.indexSeconds!));
    return [put, { put: { key: newIndexKey(side.key), value: EMPTY, lease: indexLease } }];
  }

  /** The lease a write with a TTL is attached to (none without one: the key is kept). */
  private async leaseOf(key: string, options: WriteOptions | undefined): Promise<string | undefined> {
    if (!options?.ttlSeconds) return undefined;
    return this.call(key, () => this.leases.leaseFor(options.ttlSeconds!));
  }

  async get(key: string, options?: { revision?: number }): Promise<KeyValue | null> {
    const revision = options?.revision;
    if (!revision) return this.call(key, () => this.reads.read(key));
    const res = await this.call(key, () => this.raw.range({ key: Buffer.from(key), revision }), revision);
    return res.kvs.length > 0 ? fromRaw(res.kvs[0]) : null;
  }

  /** The keys' values in one request (read-batch.ts): a range for one key, a read-only transaction for more. */
  private async readKeys(keys: string[]): Promise<(KeyValue | null)[]> {
    if (keys.length === 1) {
      const res = await this.raw.range({ key: Buffer.from(keys[0]) });
      return [res.kvs.length > 0 ? fromRaw(res.kvs[0]) : null];
    }
    const res = await this.raw.readTxn(keys.map((key) => ({ key: Buffer.from(key) })));
    return rangesOf(res).map(({ kvs }) => (kvs.length > 0 ? fromRaw(kvs[0]) : null));
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    const range = listRange(prefix, options.startKey);
    const requested = options.revision || 0;
    const res = await this.call(
      prefix,
      () => this.raw.range({ key: range.start, rangeEnd: range.end, revision: requested, limit: options.limit || 0 }),
      requested,
    );
    const items = res.kvs.map(fromRaw);
    return { items, revision: requested || res.revision, more: res.more, remaining: res.count - items.length };
  }

  async update(key: string, value: Buffer, expectedModRevision: number, options?: WriteOptions): Promise<KeyValue> {
    const k = Buffer.from(key);
    const lease = await this.leaseOf(key, options);
    const side = await this.alongside(options);
    // The key's createRevision, read after the put in the same transaction: keys only, not the previous value.
    const res = await this.call(key, () =>
      this.raw.txn({
        compare: preconditions(k, expectedModRevision),
        success: [{ put: { key: k, value, lease } }, { range: { key: k, keysOnly: true } }, ...side],
        failure: [{ range: { key: k } }],
      }),
    );
    if (!res.succeeded) throw failedPrecondition(key, rangesOf(res)[0].kvs);
    const written = rangesOf(res)[1].kvs[0];
    return { key, value, createRevision: written.createRevision, modRevision: res.revision };
  }

  async delete(key: string, expectedModRevision?: number, options?: Pick<WriteOptions, 'alongside'>): Promise<KeyValue> {
    const k = Buffer.from(key);
    const side = await this.alongside(options);
    const res = await this.call(key, () =>
      this.raw.txn({
        compare: preconditions(k, expectedModRevision),
        success: [{ deleteRange: { key: k, prevKv: true } }, ...side],
        failure: [{ range: { key: k } }],
      }),
    );
    if (!res.succeeded) throw failedPrecondition(key, rangesOf(res)[0].kvs);
    const prev = fromRaw(res.responses[0].prevKvs[0]);
    return { ...prev, modRevision: res.revision };
  }

  watch(prefix: string, options: WatchOptions, handlers: WatchHandlers): StorageWatcher {
    const sink = watchEtcd(this.client.watchClient, prefix, options.afterRevision, handlers, {
      precheck: () => this.checkWatchStart(prefix, options.afterRevision),
      onCompacted: (revision) => this.learnCompacted(revision),
      onClose: () => this.watches.delete(sink),
    });
    this.watches.add(sink);
    return sink;
  }

  async currentRevision(): Promise<number> {
    const res = await this.call('', () => this.raw.range({ key: PROBE_KEY, countOnly: true }));
    return res.revision;
  }

  async compactedRevision(): Promise<number> {
    const current = await this.currentRevision();
    const oldest = await findOldestReadable(Math.max(this.knownCompacted, 1), current, (revision) => this.readableAt(revision));
    this.learnCompacted(oldest);
    // Revision 1 (etcd's empty start) is readable until something newer is compacted to.
    return oldest > 1 ? oldest : 0;
  }

  async compact(revision: number): Promise<void> {
    try {
      await this.client.kv.compact({ revision, physical: true });
    } catch (err) {
      // Compacting to a revision at or below the compacted one is a no-op, not a failure.
      if (etcdErrorKind(err) === 'Compacted') return;
      throw await this.translate(err, '', revision);
    }
    this.learnCompacted(revision);
    this.logger?.debug('etcd compacted', { revision });
  }

  historyBoundRevision(maxBytes: number): Promise<number> {
    return this.historyBytes.boundRevision(maxBytes);
  }

  alongsideHistory(key: string, ownerKey: string, options: HistoryPageOptions): Promise<AlongsideHistory> {
    return readAlongsideHistory(this.indexReader, key, ownerKey, options);
  }

  private readonly indexReader: IndexReader;

  async close(): Promise<void> {
    this.historyBytes.stop();
    for (const sink of [...this.watches]) sink.stop();
    this.client.close();
    this.raw.close();
  }

  /**
   * Refuses a watch whose start is compacted away, the way a list at afterRevision would be refused.
   * etcd alone would accept afterRevision + 1 == the compacted revision and then deliver that
   * revision's events without their previous values. A future afterRevision is fine: the watch waits.
   */
  private async checkWatchStart(prefix: string, afterRevision: number): Promise<void> {
    if (afterRevision <= 0) return;
    try {
      await this.call(prefix, () => this.raw.range({ key: PROBE_KEY, countOnly: true, revision: afterRevision }), afterRevision);
    } catch (err) {
      if (err instanceof StorageError && err.code === 'FutureRevision') return;
      throw err;
    }
  }

  /** Whether a read pinned to revision succeeds (false when it is compacted). */
  private async readableAt(revision: number): Promise<boolean> {
    try {
      await this.raw.range({ key: PROBE_KEY, countOnly: true, revision });
      return true;
    } catch (err) {
      if (etcdErrorKind(err) === 'Compacted') return false;
      throw await this.translate(err, '', revision);
    }
  }

  private learnCompacted(revision: number): void {
    this.knownCompacted = Math.max(this.knownCompacted, revision);
    this.historyBytes.compacted(revision);
  }

  /** Runs one etcd request, translating its failure into a StorageError where one applies. */
  private async call<T>(key: string, request: () => Promise<T>, requestedRevision?: number): Promise<T> {
    try {
      return await request();
    } catch (err) {
      throw await this.translate(err, key, requestedRevision);
    }
  }

  private async translate(err: unknown, key: string, requestedRevision?: number): Promise<unknown> {
    switch (etcdErrorKind(err)) {
      case 'Compacted':
        return new StorageError('Compacted', key, {
          revision: await this.compactedRevision().catch(() => undefined),
          requestedRevision,
          cause: err,
        });
      case 'FutureRevision':
        return new StorageError('FutureRevision', key, {
          revision: await this.currentRevision().catch(() => undefined),
          requestedRevision,
          cause: err,
        });
      case 'Unavailable':
        this.logger?.debug('etcd unavailable', { key, error: String(err) });
        return new StorageError('Unavailable', key, { cause: err });
      default:
        return err;
    }
  }
}

/** The key exists and, when expectedModRevision is given, was last written at that revision. */
function preconditions(key: Buffer, expectedModRevision: number | undefined): RawCompare[] {
  const exists: RawCompare = { key, target: 'create', result: 'greater', value: 0 };
  if (expectedModRevision === undefined) return [exists];
  return [exists, { key, target: 'mod', result: 'equal', value: expectedModRevision }];
}

/** Why a write's preconditions failed, from the key's current state read in the same transaction. */
function failedPrecondition(key: string, current: RawKeyValue[]): StorageError {
  if (current.length === 0) return new StorageError('KeyNotFound', key);
  return new StorageError('Conflict', key, { current: fromRaw(current[0]) });
}
