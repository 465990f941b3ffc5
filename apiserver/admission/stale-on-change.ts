/**
 * A value read on demand and kept until a change marks it stale: the next `current()` reads it
 * again. A change while a read is in flight keeps that read's answer from being kept (it may predate
 * the change); a failed read is not kept either.
 */
export interface StaleOnChange<T> {
  current(): Promise<T>;
  /** A change: the next current() reads again. */
  changed(): void;
}

export function staleOnChange<T>(load: () => Promise<T>): StaleOnChange<T> {
  let cached: Promise<T> | undefined;
  let generation = 0;
  return {
    current() {
      if (cached) return cached;
      const mine = generation;
      const p = load();
      cached = p;
      p.then(
        () => {
          if (generation !== mine && cached === p) cached = undefined;
        },
        () => {
          if (cached === p) cached = undefined;
        },
      );
      return p;
    },
    changed() {
      generation++;
      cached = undefined;
    },
  };
}
