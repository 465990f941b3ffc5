import type { Storage, StorageEvent } from '../../../apiserver/storage/interfaces.js';

const WAIT_MS = 5000;

/** A running watch that records what it delivers, for assertions. */
export class WatchRecorder {
  readonly events: StorageEvent[] = [];
  readonly errors: Error[] = [];
  private readonly watcher;
  private wake: () => void = () => {};

  constructor(storage: Storage, prefix: string, afterRevision: number) {
    this.watcher = storage.watch(
      prefix,
      { afterRevision },
      {
        onEvent: (event) => {
          this.events.push(event);
          this.wake();
        },
        onError: (err) => {
          this.errors.push(err);
          this.wake();
        },
      },
    );
  }

  /** Resolves with the events once `count` have arrived; rejects on a watch error or after 5 s. */
  async waitForEvents(count: number): Promise<StorageEvent[]> {
    await this.until(() => this.events.length >= count, `${count} events`);
    return this.events;
  }

  /** Resolves with the watch error once it arrived; rejects after 5 s. */
  async waitForError(): Promise<Error> {
    await this.until(() => this.errors.length > 0, 'a watch error');
    return this.errors[0];
  }

  /** Resolves once an event with a modRevision of at least `revision` arrived. */
  async waitForRevision(revision: number): Promise<StorageEvent[]> {
    await this.until(() => this.events.some((e) => e.kv.modRevision >= revision), `revision ${revision}`);
    return this.events;
  }

  stop(): void {
    this.watcher.stop();
  }

  private async until(done: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    while (!done()) {
      if (this.errors.length > 0) throw this.errors[0];
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new Error(`timed out waiting for ${what}; got ${this.events.length} events, errors: ${this.errors.join(', ')}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}

/** Lets pending asynchronous deliveries run, to check that nothing more arrives. */
export function settle(ms = 50): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
