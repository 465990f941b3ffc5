/**
 * The storage conformance suite on remote storage: the embedded store owned on one side of a
 * structured-clone message channel (what worker processes get with 'advanced' IPC serialization),
 * used through newRemoteStorage on the other.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { newRemoteStorage, serveStorage, type MessagePortLike } from '../../../apiserver/storage/remote/index.js';
import { newSqliteStorage } from '../../../apiserver/storage/sqlite/index.js';
import { runStorageConformance } from './conformance.js';

function portOf(port: MessagePort): MessagePortLike {
  return {
    send: (m) => port.postMessage(m),
    onMessage: (listener) => {
      port.on('message', listener);
      return () => port.off('message', listener);
    },
  };
}

runStorageConformance('remote (sqlite owned across a message channel)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-remote-'));
  const owned = newSqliteStorage({ path: join(dir, 'state.db') });
  const { port1, port2 } = new MessageChannel();
  const peer = serveStorage(owned, portOf(port1));
  const storage = newRemoteStorage(portOf(port2));
  return {
    storage,
    cleanup: async () => {
      await storage.close();
      peer.close();
      port1.close();
      port2.close();
      await owned.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
