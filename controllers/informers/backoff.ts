/** Exponential backoff with jitter, and an abortable sleep, for retry loops. */

/** Delays that start at initialMs and double up to maxMs, each with up to 10% jitter added. */
export class Backoff {
  private current: number;

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
  ) {
    this.current = initialMs;
  }

  next(): number {
    const delay = this.current * (1 + Math.random() * 0.1);
    this.current = Math.min(this.current * 2, this.maxMs);
    return delay;
  }

  reset(): void {
    this.current = this.initialMs;
  }
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
