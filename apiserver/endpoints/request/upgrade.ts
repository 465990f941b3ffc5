/**
 * An Upgrade request (WebSocket, SPDY) as the server received it: its socket and the bytes read past
 * the headers. Set by the server's upgrade listener before the handler chain runs; a CONNECT handler
 * hands both to the proxy.
 */
import type { Duplex } from 'node:stream';
import { newRequestSlot } from './request-slot.js';

export interface Upgrade {
  socket: Duplex;
  head: Buffer;
}

const slot = newRequestSlot<Upgrade>('upgrade', 'upgrade');

export const setUpgrade = slot.set;

/** The upgrade of this request, or undefined for an ordinary one. */
export function upgradeFrom(req: Parameters<typeof slot.get>[0]): Upgrade | undefined {
  try {
    return slot.get(req);
  } catch {
    return undefined;
  }
}
