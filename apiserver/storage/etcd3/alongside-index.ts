/**
 * etcd's index of the writes of alongside keys (Storage.alongsideHistory). etcd keeps every revision
 * of a key for the history window but can only read a key at a revision named in advance, so the
 * writes of a ledger key were found one read at a time (the key at the previous write's revision
 * minus one): two requests per revision, ~200 ms for a page of 50 on a busy etcd.
 *
 * Beside each alongside write given `indexSeconds`, the write's txn also creates one empty key under
 * ALONGSIDE_INDEX_ROOT, named after the alongside key plus a name unique to this write, on a lease of
 * that many seconds. Its createRevision is the write's revision. A history page is then two requests:
 * one range of the key's index entries (newest createRevision first), and one read-only transaction
 * reading the alongside key and its owner at each of those revisions.
 */
import { randomBytes } from 'node:crypto';
import type { Etcd3, IRequestOp } from 'etcd3';
import { isStorageError } from '../errors.js';
import { ALONGSIDE_INDEX_ROOT, ALONGSIDE_ROOT, type AlongsideHistory, type AlongsideWrite } from '../interfaces.js';
import { toKeyValue } from './convert.js';

/** Ranges per transaction: etcd refuses more than --max-txn-ops (128 by default). */
const MAX_TXN_RANGES = 128;

/** Between the alongside key and the write's own name: no key holds it, so one key's entries never share another's prefix. */
const SEPARATOR = '\u0000';

/** This process's part of every entry name, so replicas writing at once never collide; a counter names the rest. */
const PROCESS_PART = randomBytes(6).toString('hex');
let counter = 0;

/** Where the index entries of an alongside key lie. */
export function indexPrefix(alongsideKey: string): string {
  return `${ALONGSIDE_INDEX_ROOT}${alongsideKey.slice(ALONGSIDE_ROOT.length)}${SEPARATOR}`;
}

/** A new entry's key: unique to this write (a put of an existing key would keep the old createRevision). */
export function newIndexKey(alongsideKey: string): Buffer {
  return Buffer.from(`${indexPrefix(alongsideKey)}${PROCESS_PART}${(counter++).toString(36)}`);
}

export interface IndexReader {
  client: Etcd3;
  /** A lower bound of the compacted revision, known without a request. */
  knownCompacted(): number;
  /** The compacted revision, probed (storage.ts). */
  compactedRevision(): Promise<number>;
  /** The request through the storage's error translation (etcd's errors as StorageErrors). */
  call<T>(key: string, request: () => Promise<T>, revision?: number): Promise<T>;
}

/** The last `limit` writes at or below atOrBefore of the alongside key, with its owner's value at each. */
export async function readAlongsideHistory(
  reader: IndexReader,
  key: string,
  ownerKey: string,
  options: { atOrBefore: number; limit: number },
): Promise<AlongsideHistory> {
  const start = Buffer.from(indexPrefix(key));
  const end = Buffer.from(start);
  end[end.length - 1]++;
  // At the current revision: an entry that expired since is older than the window anyway.
  const res = await reader.call(key, () =>
    reader.client.kv.range({
      key: start,
      range_end: end,
      keys_only: true,
      sort_target: 'Create',
      sort_order: 'Descend',
      max_create_revision: options.atOrBefore,
      limit: options.limit,
    }),
  );
  const revisions = res.kvs.map((kv) => Number(kv.create_revision));
  let compacted = reader.knownCompacted();
  for (let attempt = 0; ; attempt++) {
    const retained = revisions.filter((r) => r >= compacted);
    try {
      const writes = await readWrites(reader, key, ownerKey, retained);
      const oldest = writes.at(-1)?.alongside;
      // Complete: the page is full, the index reached below the window, or its oldest write is the key's first.
      const complete =
        writes.length === options.limit || retained.length < revisions.length || (!!oldest && oldest.createRevision === oldest.modRevision);
      return { writes, complete };
    } catch (err) {
      // Compacted meanwhile (or further than this process knew): once more, with the compacted revision probed.
      if (attempt > 0 || !isStorageError(err, 'Compacted')) throw err;
      compacted = await reader.compactedRevision();
    }
  }
}

/** The alongside key and its owner at each revision, in read-only transactions of at most MAX_TXN_RANGES ranges. */
async function readWrites(reader: IndexReader, key: string, ownerKey: string, revisions: number[]): Promise<AlongsideWrite[]> {
  const k = Buffer.from(key);
  const owner = Buffer.from(ownerKey);
  const perTxn = MAX_TXN_RANGES / 2;
  const txns: Promise<AlongsideWrite[]>[] = [];
  for (let i = 0; i < revisions.length; i += perTxn) {
    const chunk = revisions.slice(i, i + perTxn);
    const success: IRequestOp[] = chunk.flatMap((revision) => [
      { request_range: { key: k, revision } },
      { request_range: { key: owner, revision } },
    ]);
    txns.push(
      reader
        .call(key, () => reader.client.kv.txn({ success }), chunk.at(-1))
        .then((r) =>
          chunk.map((_, j) => {
            const side = r.responses[2 * j].response_range.kvs;
            const value = r.responses[2 * j + 1].response_range.kvs;
            if (side.length === 0) throw new Error(`storage: the index lists a write of ${key} at ${chunk[j]} that is not there`);
            return { alongside: toKeyValue(side[0]), owner: value.length > 0 ? toKeyValue(value[0]) : null };
          }),
        ),
    );
  }
  return (await Promise.all(txns)).flat();
}
