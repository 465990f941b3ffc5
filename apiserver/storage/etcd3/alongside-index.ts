/**
 * etcd's index of the writes of alongside keys (Storage.alongsideHistory). etcd keeps every revision
 * of a key for the history window but can only read a key at a revision named in advance, so the
 * writes of a ledger key were found one read at a time (the key at the previous write's revision
 * minus one): two requests per revision, ~200 ms for a page of 50 on a busy etcd.
 *
 * Beside each alongside write given `indexSeconds`, the write's txn also creates one empty key under
 * ALONGSIDE_INDEX_ROOT, named after the alongside key plus a name unique to this write, on a lease of
 * that many seconds. Its createRevision is the write's revision. A history page is then two requests:
 * one range of the key's index entries, and one read-only transaction reading the alongside key and
 * its owner at each of those revisions.
 *
 * The entry's name starts with the write's clock reading, counted down, so that etcd's own key order
 * is newest first: a page is a range with a limit, which etcd stops at, where asking etcd to sort by
 * revision (or to filter by it) makes it read every entry of the key, 2,000 of them for an object
 * written 2,000 times in the window (4 ms alone, 20 ms p50 at 4 reads at once on 2 cores). Clocks of
 * replicas differ, so key order is only near revision order: the page reads some entries more, sorts
 * them by revision, and checks the alongside key's etcd version (one more per write) runs down by one
 * from each write to the next; where it does not, the page ends there, incomplete, and the ledger
 * walks on a read per write. A page further back than the range holds (or entries named before
 * this order, which lack the TIMED mark) is read sorted by etcd, as before.
 */
import { randomBytes } from 'node:crypto';
import { isStorageError } from '../errors.js';
import {
  ALONGSIDE_INDEX_ROOT,
  ALONGSIDE_ROOT,
  type AlongsideHistory,
  type AlongsideWrite,
  type HistoryPageOptions,
  type KeyValue,
} from '../interfaces.js';
import { listRange } from '../key-range.js';
import { fromRaw } from './convert.js';
import type { RawKvClient } from './raw-call.js';
import { type RawRange, rangesOf } from './raw-kv.js';

/** Ranges per transaction: etcd refuses more than --max-txn-ops (128 by default). */
const MAX_TXN_RANGES = 128;

/** Between the alongside key and the write's own name: no key holds it, so one key's entries never share another's prefix. */
const SEPARATOR = '\u0000';

/** This process's part of every entry name, so replicas writing at once never collide; a counter names the rest. */
const PROCESS_PART = randomBytes(6).toString('hex');
let counter = 0;

/** After the prefix, what marks an entry named for its time (entries named before start with a hex digit). */
const TIMED = '!';
/** Milliseconds since the epoch, counted down from 10^13 (the year 2286) in as many digits: newest first. */
const TIME_DIGITS = 13;
/** The counter's digits (base 36) in a name, and how many values they hold. */
const COUNTER_DIGITS = 8;
const COUNTER_SPAN = 36 ** COUNTER_DIGITS;
/** This process's latest clock reading: names never go back in time when the clock does. */
let lastMs = 0;
/** Entries read beyond the page, for writes whose clock order differs from their revision order. */
const SLACK = 16;

/** Where the index entries of an alongside key lie. */
export function indexPrefix(alongsideKey: string): string {
  return `${ALONGSIDE_INDEX_ROOT}${alongsideKey.slice(ALONGSIDE_ROOT.length)}${SEPARATOR}`;
}

/** A new entry's key: unique to this write (a put of an existing key would keep the old createRevision), newest first. */
export function newIndexKey(alongsideKey: string): Buffer {
  lastMs = Math.max(lastMs, Date.now());
  const ms = String(10 ** TIME_DIGITS - 1 - lastMs).padStart(TIME_DIGITS, '0');
  // Within one millisecond of this process the counter counts down too.
  const n = (COUNTER_SPAN - 1 - (counter++ % COUNTER_SPAN)).toString(36).padStart(COUNTER_DIGITS, '0');
  return Buffer.from(`${indexPrefix(alongsideKey)}${TIMED}${ms}${n}${PROCESS_PART}`);
}

export interface IndexReader {
  /** Reads with raw-kv.ts's codec (a page's ranges and transaction). */
  raw: RawKvClient;
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
  options: HistoryPageOptions,
): Promise<AlongsideHistory> {
  const fast = await newestEntries(reader, key, options);
  // Without atOrBefore, the page is read at the revision the range was (etcd's current one then).
  const page = { atOrBefore: options.atOrBefore ?? fast.revision, limit: options.limit };
  let revisions = fast.revisions ?? (await sortedEntries(reader, key, page));
  let compacted = reader.knownCompacted();
  for (let attempt = 0; ; attempt++) {
    let retained = revisions.filter((r) => r >= compacted);
    try {
      let read = await readWrites(reader, key, ownerKey, retained, page.atOrBefore);
      const newest = read.newest?.modRevision;
      // The range missed the newest writes (named by a clock behind): etcd sorts them, reading every entry.
      if (fast.revisions && retained.length > 0 && newest !== retained[0]) {
        revisions = await sortedEntries(reader, key, page);
        retained = revisions.filter((r) => r >= compacted);
        read = await readWrites(reader, key, ownerKey, retained, page.atOrBefore);
      }
      // The alongside key's newest write is the first listed, and its version runs down by one a write
      // from there: where not, a write is missing (not indexed, or named by a clock behind).
      const gap =
        read.newest?.modRevision !== retained[0]
          ? 0
          : read.writes.findIndex((w, i) => i > 0 && w.version !== read.writes[i - 1].version - 1);
      const writes = (gap < 0 ? read.writes : read.writes.slice(0, gap)).map((w) => w.write);
      const oldest = writes.at(-1)?.alongside;
      // Complete: the page is full, the index reached below the window, or its oldest write is the key's first.
      const complete =
        gap < 0 &&
        (writes.length === options.limit ||
          retained.length < revisions.length ||
          (!!oldest && oldest.createRevision === oldest.modRevision));
      return { writes, complete, revision: page.atOrBefore, newest: read.newest };
    } catch (err) {
      // Compacted meanwhile (or further than this process knew): once more, with the compacted revision probed.
      if (attempt > 0 || !isStorageError(err, 'Compacted')) throw err;
      compacted = await reader.compactedRevision();
    }
  }
}

/**
 * The revisions of the newest timed entries at or below atOrBefore, newest first, up to the limit:
 * a range etcd stops at the limit of (its key order is newest first); and the revision it was read
 * at. No revisions when the range holds more entries than it read and too few of them are at or
 * below atOrBefore (a page further back).
 */
async function newestEntries(
  reader: IndexReader,
  key: string,
  options: HistoryPageOptions,
): Promise<{ revisions: number[] | undefined; revision: number }> {
  const asked = options.limit + SLACK;
  const range = listRange(`${indexPrefix(key)}${TIMED}`);
  const res = await reader.call(key, () => reader.raw.range({ key: range.start, rangeEnd: range.end, keysOnly: true, limit: asked }));
  const revision = res.revision;
  const atOrBefore = options.atOrBefore ?? revision;
  const revisions = res.kvs
    .map((kv) => kv.createRevision)
    .filter((r) => r <= atOrBefore)
    .sort((a, b) => b - a);
  if (revisions.length < options.limit && res.more) return { revisions: undefined, revision };
  return { revisions: revisions.slice(0, options.limit), revision };
}

/** The revisions of the newest entries at or below atOrBefore, named either way, sorted by etcd (it reads them all). */
async function sortedEntries(reader: IndexReader, key: string, options: { atOrBefore: number; limit: number }): Promise<number[]> {
  const range = listRange(indexPrefix(key));
  const res = await reader.call(key, () =>
    reader.raw.range({
      key: range.start,
      rangeEnd: range.end,
      keysOnly: true,
      newestCreatedFirst: true,
      maxCreateRevision: options.atOrBefore,
      limit: options.limit,
    }),
  );
  return res.kvs.map((kv) => kv.createRevision);
}

/** One write read back, with the etcd version of the alongside key it left. */
interface ReadWrite {
  write: AlongsideWrite;
  version: number;
}

/**
 * The alongside key and its owner at each revision, in read-only transactions of at most
 * MAX_TXN_RANGES ranges; and the alongside key at atOrBefore (its newest write there), null when
 * it has none. The first transaction reads that one too, so a page takes one even with no revisions.
 */
async function readWrites(
  reader: IndexReader,
  key: string,
  ownerKey: string,
  revisions: number[],
  atOrBefore: number,
): Promise<{ writes: ReadWrite[]; newest: KeyValue | null }> {
  const k = Buffer.from(key);
  const owner = Buffer.from(ownerKey);
  const perTxn = Math.floor((MAX_TXN_RANGES - 1) / 2);
  const txns: Promise<ReadWrite[]>[] = [];
  let newest: KeyValue | null = null;
  for (let i = 0; i === 0 || i < revisions.length; i += perTxn) {
    const chunk = revisions.slice(i, i + perTxn);
    const first = i === 0;
    const ranges: RawRange[] = chunk.flatMap((revision) => [
      { key: k, revision },
      { key: owner, revision },
    ]);
    if (first) ranges.unshift({ key: k, revision: atOrBefore });
    const at = first ? 1 : 0;
    txns.push(
      reader
        .call(key, () => reader.raw.readTxn(ranges), first ? atOrBefore : chunk.at(-1))
        .then((txn) => {
          const r = rangesOf(txn);
          if (first) {
            const anchor = r[0].kvs;
            newest = anchor.length > 0 ? fromRaw(anchor[0]) : null;
          }
          return chunk.map((_, j) => {
            const side = r[at + 2 * j].kvs;
            const value = r[at + 2 * j + 1].kvs;
            if (side.length === 0) throw new Error(`storage: the index lists a write of ${key} at ${chunk[j]} that is not there`);
            return {
              write: { alongside: fromRaw(side[0]), owner: value.length > 0 ? fromRaw(value[0]) : null },
              version: side[0].version,
            };
          });
        }),
    );
  }
  const writes = (await Promise.all(txns)).flat();
  return { writes, newest };
}
