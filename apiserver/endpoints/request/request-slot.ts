import type { IncomingMessage } from 'node:http';

/**
 * A typed value attached to a request once by a filter and read everywhere after it (request info,
 * user). Reading before the filter ran is a programming error; find() is for a value that is optional.
 */
export function newRequestSlot<T>(name: string, setBy: string) {
  const key = Symbol(name);
  // A private symbol member of the request: IncomingMessage's type has no room for it.
  const members = (req: IncomingMessage) => req as unknown as Record<symbol, T | undefined>;
  const find = (req: IncomingMessage): T | undefined => members(req)[key];
  return {
    set(req: IncomingMessage, value: T): void {
      members(req)[key] = value;
    },
    get(req: IncomingMessage): T {
      const value = find(req);
      if (value === undefined) throw new Error(`${name} missing: the ${setBy} filter did not run`);
      return value;
    },
    find,
  };
}
