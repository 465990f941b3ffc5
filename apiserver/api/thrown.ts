/**
 * What a caught value says. `catch` binds `unknown`: what Node and our own code throw are Errors, but a
 * library may throw anything, so this reads the message only of what has one (an Error of another realm
 * too, which `instanceof` would miss) and prints the rest.
 */
export function messageOf(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'message' in err && typeof err.message === 'string') return err.message;
  return String(err);
}

/** A caught value as an Error: itself when it is one, else an Error carrying what it says. */
export function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(messageOf(err));
}
