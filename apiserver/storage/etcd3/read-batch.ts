/**
 * Single-key reads started in the same turn of the event loop, sent to etcd as one request.
 *
 * A gRPC call costs the client ≈200 µs of CPU whatever it carries, while a read-only transaction of
 * N ranges costs little more than one range. etcd serves a read-only transaction as it serves a
 * range, a linearizable read: each read in a batch still sees every write acknowledged before it
 * was asked for, because the batch is sent after it was asked for (at the end of the turn, in
 * setImmediate). A batch holds at most MAX_BATCH reads (etcd refuses transactions of more than 128
 * operations by default); a lone read goes as the plain range it always was.
 */

/** Reads per transaction at most. */
export const MAX_BATCH = 64;

/** Reads the given keys in one request; the answer has one entry per key, in order. */
export type ReadKeys<T> = (keys: string[]) => Promise<T[]>;

interface Waiter<T> {
  key: string;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

export class ReadBatcher<T> {
  private pending: Waiter<T>[] = [];

  constructor(private readonly readKeys: ReadKeys<T>) {}

  /** The key's value, read with the other keys asked for in this turn. A failed batch fails each of its reads. */
  read(key: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ key, resolve, reject });
    });
  }

  private flush(): void {
    const all = this.pending;
    this.pending = [];
    for (let i = 0; i < all.length; i += MAX_BATCH) this.send(all.slice(i, i + MAX_BATCH));
  }

  private send(batch: Waiter<T>[]): void {
    this.readKeys(batch.map((w) => w.key)).then(
      (values) => {
        for (let i = 0; i < batch.length; i++) batch[i].resolve(values[i]);
      },
      (err: unknown) => {
        for (const w of batch) w.reject(err);
      },
    );
  }
}
