import type { IncomingMessage } from 'node:http';

/**
 * A typed value attached to a request once by a filter and read everywhere after it (request info,
 * user). Reading before the filter ran is a programming error.
 */
export function newRequestSlot<T>(name: string, setBy: string) {
  const key = Symbol(name);
  return {
    set(req: IncomingMessage, value: T): void {
      // A private symbol member of the request: IncomingMessage's type has no room for it.
      (req as unknown as Record<symbol, T>)[key] = value;
    },
    get(req: IncomingMessage): T {
      // The member set() wrote.
      const value = (req as unknown as Record<symbol, T | undefined>)[key];
      if (value === undefined) throw new Error(`${name} missing: the ${setBy} filter did not run`);
      return value;
    },
  };
}
