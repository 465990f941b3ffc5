import type { StorageEvent } from '../interfaces.js';
import { watchCovers } from '../key-range.js';
import type { WatchSink } from '../watch-sink.js';

/**
 * The embedded store's live watch fan-out: every committed write is published here, synchronously
 * right after its transaction, and pushed to each subscribed watch whose prefix covers the key. The
 * sinks deliver asynchronously, so no handler runs inside a write.
 */
export class WatchHub {
  private readonly subscribers = new Map<WatchSink, { prefix: string; afterRevision: number }>();

  /**
   * Starts pushing events under prefix (see watchCovers) with a revision above afterRevision to sink
   * (a watch may start from a revision not written yet).
   */
  subscribe(prefix: string, afterRevision: number, sink: WatchSink): void {
    this.subscribers.set(sink, { prefix, afterRevision });
  }

  unsubscribe(sink: WatchSink): void {
    this.subscribers.delete(sink);
  }

  /** Pushes one committed event to every matching subscriber. */
  publish(event: StorageEvent): void {
    for (const [sink, { prefix, afterRevision }] of this.subscribers) {
      if (event.kv.modRevision > afterRevision && watchCovers(prefix, event.kv.key)) sink.push(event);
    }
  }

  /** Stops every subscribed watch without an error (the store is closing). */
  stopAll(): void {
    for (const sink of [...this.subscribers.keys()]) sink.stop();
  }
}
