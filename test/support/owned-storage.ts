/**
 * The embedded store as a --workers worker sees it: owned on one side of a structured-clone message
 * channel (what Node's 'advanced' IPC serialization gives worker processes), used through
 * newRemoteStorage on the other. For the storage and cacher conformance suites.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { Storage } from '../../apiserver/storage/interfaces.js';
import { newRemoteStorage, serveStorage, type MessagePortLike } from '../../apiserver/storage/remote/index.js';
import { newSqliteStorage } from '../../apiserver/storage/sqlite/index.js';

function portOf(port: MessagePort): MessagePortLike {
  return {
    send: (m) => port.postMessage(m),
    onMessage: (listener) => {
      port.on('message', listener);
      return () => port.off('message', listener);
    },
  };
}

/** A remote storage on a fresh SQLite file; `close()` closes both ends and removes the file. */
export async function newOwnedRemoteStorage(): Promise<{ storage: Storage; close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-remote-'));
  const owned = newSqliteStorage({ path: join(dir, 'state.db') });
  const { port1, port2 } = new MessageChannel();
  const peer = serveStorage(owned, portOf(port1));
  const storage = newRemoteStorage(portOf(port2));
  return {
    storage,
    async close() {
      await storage.close();
      peer.close();
      port1.close();
      port2.close();
      await owned.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
