/**
 * A copy of `obj` without its members that hold undefined, as Go's omitempty drops nil pointers; the
 * members left keep their order.
 */
export function withoutUndefined<T extends object>(obj: T): T {
  const out = { ...obj };
  for (const key in out) if (out[key] === undefined) delete out[key];
  return out;
}
