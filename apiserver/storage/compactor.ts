import type { Logger } from 'winston';
import { isStorageError } from './errors.js';
import type { KeyValue, Storage } from './interfaces.js';

/**
 * The key replicas sharing one store coordinate compaction on (Kubernetes' name). Its value is the
 * revision the winner of a round compacts to, in decimal.
 */
export const COMPACT_REV_KEY = 'compact_rev_key';

export interface CompactorOptions {
  /** Time between rounds; 0 disables compaction. */
  intervalMs: number;
  /**
   * --history-retention: keep every revision younger than this (the revision ledger's window);
   * absent or 0: keep one interval, as Kubernetes does.
   */
  retentionMs?: number;
  /** --history-retention-max-revisions: with a retention, keep at most this many revisions (0: no bound). */
  maxRevisions?: number;
  /**
   * --history-retention-max-bytes: with a retention, keep at most this many bytes of history (the
   * revisions later writes superseded, Storage.historyBoundRevision), the oldest compacted first; 0: no bound.
   */
  maxBytes?: number;
  logger: Logger;
}

export interface Compactor {
  /** Stops the rounds; resolves once a round in progress has finished. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Compacts the store periodically, Kubernetes style, keeping one interval of history: each round
 * compacts to the revision observed in the previous round. With a retention (the revision ledger's
 * --history-retention), a round compacts to the newest revision it observed at least one retention
 * ago instead (so every younger revision stays readable), or further when more than maxRevisions
 * revisions or more than maxBytes bytes of history would stay. A replica that just started has observed nothing that old and keeps all.
 *
 * Replicas sharing a store elect one compactor per round with a compare-and-swap on COMPACT_REV_KEY:
 * a round writes the key expecting the modRevision it saw last; the replica whose write wins compacts,
 * the others learn the key's new state and skip the round. Consecutive winning writes are therefore
 * at least one interval apart, whichever replica makes them.
 */
export function startCompactor(storage: Storage, options: CompactorOptions): Compactor {
  if (options.intervalMs <= 0) return { stop: async () => {} };
  const { logger } = options;
  /** COMPACT_REV_KEY as last seen: null when absent, undefined before the first round. */
  let seen: KeyValue | null | undefined;
  /** The revision observed in the previous round: this round's compaction target. */
  let observed = 0;
  /** With a retention: the revisions rounds observed and when, oldest first (one per round in the window). */
  const samples: { at: number; revision: number }[] = [];
  const retentionMs = options.retentionMs ?? 0;
  const maxRevisions = options.maxRevisions ?? 0;
  const maxBytes = retentionMs > 0 ? (options.maxBytes ?? 0) : 0;

  /** This round's compaction target: the newest revision observed at least one retention ago, within the size bound. */
  const targetOf = (now: number): number => {
    if (retentionMs <= 0) return observed;
    let target = 0;
    while (samples.length > 0 && samples[0].at <= now - retentionMs) target = samples.shift()!.revision;
    if (target > 0) samples.unshift({ at: now - retentionMs, revision: target });
    if (maxRevisions > 0) target = Math.max(target, observed - maxRevisions);
    return target;
  };
  const observe = (revision: number): void => {
    observed = revision;
    if (retentionMs > 0) samples.push({ at: Date.now(), revision });
  };
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout;

  const round = async (): Promise<void> => {
    let target = targetOf(Date.now());
    try {
      // The byte bound, as the store stands now, but never past the revision the previous round
      // observed (as the other bounds).
      if (maxBytes > 0) target = Math.max(target, Math.min(observed, await storage.historyBoundRevision(maxBytes)));
      const value = Buffer.from(String(target));
      if (seen === undefined) seen = await storage.get(COMPACT_REV_KEY);
      const written = seen ? await storage.update(COMPACT_REV_KEY, value, seen.modRevision) : await storage.create(COMPACT_REV_KEY, value);
      seen = written;
      observe(written.modRevision);
      if (target > 0) {
        await storage.compact(target);
        logger.info('storage compacted', { revision: target });
      }
    } catch (err) {
      if (isStorageError(err, 'Conflict')) {
        // Another replica won this round.
        seen = err.current ?? null;
        observe(seen?.modRevision ?? observed);
      } else if (isStorageError(err, 'KeyExists') || isStorageError(err, 'KeyNotFound')) {
        seen = undefined;
      } else {
        logger.warn('storage compaction failed', { revision: target, error: String(err) });
      }
    }
  };

  const schedule = (): void => {
    timer = setTimeout(() => {
      running = round().then(() => {
        if (!stopped) schedule();
      });
    }, options.intervalMs);
    timer.unref();
  };
  schedule();

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
