/** Storage owned by another process, and the owner's side of it; see remote-storage.ts. */
export { newRemoteStorage } from './remote-storage.js';
export { serveStorage, type ServedPeer } from './serve-storage.js';
export type { MessagePortLike } from './protocol.js';
