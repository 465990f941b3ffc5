/** What the window needs of an event: its revision and when it was received. */
export interface Windowed {
  revision: number;
  /** Date.now() when the event was received. */
  receivedAt: number;
}

export interface WindowBounds {
  /** The most events kept. */
  maxEvents: number;
  /** Events older than this (ms) are dropped as new ones arrive. */
  maxAgeMs: number;
}

/**
 * A sliding window of events in revision order, bounded in count and age. It is complete after
 * `startRevision`: every event with a revision above it that was pushed is still here, so a reader
 * resuming from any revision ≥ startRevision gets exactly the events after its revision.
 */
export class EventWindow<E extends Windowed> {
  private events: E[] = [];
  /** Index of the oldest event kept (events before it were dropped). */
  private head = 0;
  private start: number;

  constructor(
    private readonly bounds: WindowBounds,
    startRevision: number,
  ) {
    this.start = startRevision;
  }

  /** Events after this revision are all in the window. */
  get startRevision(): number {
    return this.start;
  }

  get size(): number {
    return this.events.length - this.head;
  }

  /** Appends an event (revisions must increase), then drops what falls outside the bounds. */
  push(event: E): void {
    this.events.push(event);
    const oldestAllowed = event.receivedAt - this.bounds.maxAgeMs;
    while (this.size > this.bounds.maxEvents || (this.size > 0 && this.events[this.head].receivedAt < oldestAllowed)) {
      this.start = this.events[this.head].revision;
      this.head++;
    }
    // Compact the array once the dropped prefix dominates it.
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }

  /** The events with a revision above `revision`, oldest first (revision must be ≥ startRevision). */
  after(revision: number): E[] {
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid].revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return this.events.slice(lo);
  }
}
