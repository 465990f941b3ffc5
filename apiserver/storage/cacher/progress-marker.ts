/**
 * Proof of progress for the feed when the store's revision moved without an event under the root.
 *
 * Writes outside the root (the compactor's compact_rev_key, another tenant of a shared etcd) raise
 * the store's revision but never reach the feed, so a reader waiting for that revision would wait
 * in vain. The marker is one key under the root that any replica may rewrite: writing it creates an
 * event at a revision above everything the reader waits for, and since one watch delivers events in
 * revision order, its arrival proves the feed has delivered everything before it. (etcd's own
 * progress notifications would do the same without a write, but before etcd 3.4.25 / 3.5.8 they
 * could overtake events still in flight — etcd issue #15220.)
 */
import { randomBytes } from 'node:crypto';
import { guaranteedUpdate } from '../guaranteed-update.js';
import type { Storage } from '../interfaces.js';

/** The marker's name under the root; '_' never occurs in a group or resource name, so no list sees it. */
export const PROGRESS_MARKER = 'watch_cache_progress';

export class ProgressMarker {
  private readonly writer = randomBytes(6).toString('hex');
  private count = 0;
  private writing: Promise<void> | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly key: string,
  ) {}

  /** Writes the marker, unless a write is already under way (that one serves the same purpose). */
  bump(): Promise<void> {
    this.writing ??= guaranteedUpdate(this.storage, this.key, () => Buffer.from(`${this.writer}/${++this.count}`)).then(
      () => {
        this.writing = undefined;
      },
      (err: unknown) => {
        this.writing = undefined;
        throw err;
      },
    );
    return this.writing;
  }
}
