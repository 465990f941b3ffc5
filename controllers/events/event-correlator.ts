/**
 * What happens to an event before it is written, as client-go's record.EventCorrelator (the one
 * kube-controller-manager's controllers use) decides it:
 *
 * - spam limit: each source may write 25 events about one object, then one more every 5 minutes
 *   (a token bucket per source and object); over the limit, events are dropped;
 * - aggregation: events alike but for their note (same source, object, type, reason, action) that
 *   arrive with 10 different notes within 10 minutes become one event whose note is
 *   "(combined from similar events): <latest note>";
 * - deduplication: an event identical to one written before (while the cache remembers it) is not
 *   written again; the earlier one's `count` and `lastTimestamp` are updated instead.
 *
 * Caches are bounded (4096 entries, least recently used out first). Pure logic with a clock.
 */

export const AGGREGATE_MAX_EVENTS = 10;
export const AGGREGATE_INTERVAL_MS = 600_000;
export const SPAM_BURST = 25;
export const SPAM_QPS = 1 / 300;
export const CACHE_SIZE = 4096;

/** The parts of an event the correlator compares. */
export interface EventFacts {
  /** reportingController + reportingInstance. */
  source: string;
  /** The regarding object: kind, namespace, name, uid, apiVersion. */
  regarding: string;
  related: string;
  type: string;
  reason: string;
  action: string;
  note: string;
}

/** Write a new event, count one more in an earlier one (its count-th occurrence), or drop it. */
export type Correlation =
  | { do: 'create'; note: string; key: string }
  | { do: 'update'; note: string; key: string; count: number }
  | { do: 'drop' };

/** A Map used as an LRU cache. */
export class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly size: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V): void {
    this.map.delete(key);
    this.map.set(key, v);
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value!);
  }
  delete(key: string): void {
    this.map.delete(key);
  }
}

export class EventCorrelator {
  private readonly aggregates = new Lru<{ notes: Set<string>; last: number }>(CACHE_SIZE);
  private readonly written = new Lru<{ count: number }>(CACHE_SIZE);
  private readonly buckets = new Lru<{ tokens: number; at: number }>(CACHE_SIZE);

  constructor(private readonly now: () => number = Date.now) {}

  correlate(e: EventFacts): Correlation {
    const now = this.now();
    if (!this.allow(`${e.source}\u0000${e.regarding}`, now)) return { do: 'drop' };

    const similar = [e.source, e.regarding, e.related, e.type, e.reason, e.action].join('\u0000');
    let agg = this.aggregates.get(similar);
    if (!agg || now - agg.last > AGGREGATE_INTERVAL_MS) agg = { notes: new Set(), last: now };
    agg.notes.add(e.note);
    agg.last = now;
    this.aggregates.set(similar, agg);
    const combined = agg.notes.size >= AGGREGATE_MAX_EVENTS;
    // The set never grows past the limit (record's PopAny).
    if (combined) agg.notes.delete(agg.notes.values().next().value!);
    const note = combined ? `(combined from similar events): ${e.note}` : e.note;
    const key = combined ? similar : `${similar}\u0000${e.note}`;

    const seen = this.written.get(key);
    if (seen) {
      seen.count++;
      return { do: 'update', note, key, count: seen.count };
    }
    this.written.set(key, { count: 1 });
    return { do: 'create', note, key };
  }

  /** Forget a written event (its write failed, or it is gone), so the next occurrence is a new event. */
  forget(key: string): void {
    this.written.delete(key);
  }

  private allow(key: string, now: number): boolean {
    const b = this.buckets.get(key) ?? { tokens: SPAM_BURST, at: now };
    b.tokens = Math.min(SPAM_BURST, b.tokens + ((now - b.at) / 1000) * SPAM_QPS);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}
