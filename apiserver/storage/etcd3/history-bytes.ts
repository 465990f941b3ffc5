import { COMPACT_REV_KEY } from '../compactor.js';
import type { Storage, StorageEvent, StorageWatcher } from '../interfaces.js';

/** Past this many tracked revisions, neighbours merge in pairs (each then counts at the newer one). */
const MAX_ENTRIES = 200_000;

/**
 * The bytes of etcd's history (Storage.historyBoundRevision), learnt from a watch of every key with
 * previous values: each update or delete supersedes its key's previous revision, whose bytes (key
 * and value) count at the superseding write's revision, the revision a compaction has to reach to
 * drop them. etcd tells nobody its history's size, so the tracker starts at the compacted revision
 * on first use and answers 0 (no bound) until it has caught up with the revision the store had then.
 * It watches the keys under '/' (objects and the ledger's) and COMPACT_REV_KEY (the compactors'
 * writes, often the newest revision): every write the API servers make. A compaction it learns of
 * (its own storage's, or anyone's through its watch failing) drops what it removed.
 */
export class HistoryBytes {
  /** The tracked revisions, ascending, and the bytes each superseded. */
  private revisions: number[] = [];
  private bytes: number[] = [];
  private total = 0;
  /** The last revision the watch delivered (or started after). */
  private seen = 0;
  /** The store's revision when the watches started: they have caught up once they reach it. */
  private startRevision = Number.POSITIVE_INFINITY;
  private watchers: StorageWatcher[] | undefined;

  constructor(private readonly storage: Pick<Storage, 'watch' | 'currentRevision' | 'compactedRevision'>) {}

  /** The lowest revision compacting to which leaves at most maxBytes of history; 0 while catching up or within the bound. */
  async boundRevision(maxBytes: number): Promise<number> {
    if (!this.watchers) await this.start();
    if (this.seen < this.startRevision || this.total <= maxBytes) return 0;
    let kept = 0;
    for (let i = this.revisions.length - 1; i >= 0; i--) {
      kept += this.bytes[i];
      if (kept > maxBytes) return this.revisions[i];
    }
    return 0;
  }

  /** A compaction to revision happened: what it dropped no longer counts. */
  compacted(revision: number): void {
    let n = 0;
    while (n < this.revisions.length && this.revisions[n] <= revision) this.total -= this.bytes[n++];
    if (n === 0) return;
    this.revisions = this.revisions.slice(n);
    this.bytes = this.bytes.slice(n);
  }

  stop(): void {
    for (const w of this.watchers ?? []) w.stop();
    this.watchers = undefined;
  }

  private async start(): Promise<void> {
    const from = await this.storage.compactedRevision();
    this.startRevision = await this.storage.currentRevision();
    this.revisions = [];
    this.bytes = [];
    this.total = 0;
    this.seen = from;
    const handlers = {
      onEvent: (event: StorageEvent) => this.add(event),
      // Compacted past (or etcd away): the next use starts again from the compacted revision.
      onError: () => this.stop(),
    };
    this.watchers = ['/', COMPACT_REV_KEY].map((prefix) => this.storage.watch(prefix, { afterRevision: from }, handlers));
  }

  private add(event: StorageEvent): void {
    const revision = event.kv.modRevision;
    this.seen = Math.max(this.seen, revision);
    if (!event.prev) return;
    const size = Buffer.byteLength(event.prev.key) + event.prev.value.length;
    // The two watches interleave: an event older than the newest tracked one goes where it belongs.
    let at = this.revisions.length;
    while (at > 0 && this.revisions[at - 1] > revision) at--;
    if (at > 0 && this.revisions[at - 1] === revision) this.bytes[at - 1] += size;
    else if (at < this.revisions.length) {
      this.revisions.splice(at, 0, revision);
      this.bytes.splice(at, 0, size);
    } else {
      this.revisions.push(revision);
      this.bytes.push(size);
    }
    this.total += size;
    if (this.revisions.length > MAX_ENTRIES) this.merge();
  }

  private merge(): void {
    const revisions: number[] = [];
    const bytes: number[] = [];
    for (let i = 0; i < this.revisions.length; i += 2) {
      const j = Math.min(i + 1, this.revisions.length - 1);
      revisions.push(this.revisions[j]);
      bytes.push(this.bytes[i] + (j > i ? this.bytes[j] : 0));
    }
    this.revisions = revisions;
    this.bytes = bytes;
  }
}
