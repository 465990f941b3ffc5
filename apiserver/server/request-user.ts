import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../authentication/interfaces.js';

const USER = Symbol('orch.user');

/** Set once by the authentication filter. */
export function setUser(req: IncomingMessage, user: UserInfo): void {
  (req as unknown as Record<symbol, UserInfo>)[USER] = user;
}

export function userFrom(req: IncomingMessage): UserInfo {
  const user = (req as unknown as Record<symbol, UserInfo | undefined>)[USER];
  if (!user) throw new Error('user missing: the authentication filter did not run');
  return user;
}
