/**
 * The owner's side of remote storage: answers one peer's calls on the real store and pushes its
 * watches' events, in order, as they happen. One per peer; `close()` stops the peer's watches.
 */
import type { BatchCreate, Storage, StorageWatcher, WriteOptions, HistoryPageOptions } from '../interfaces.js';
import { isStorageMessage, type MessagePortLike, type StorageMessage, toWire, keyValue } from './protocol.js';

export interface ServedPeer {
  close(): void;
}

export function serveStorage(storage: Storage, port: MessagePortLike): ServedPeer {
  const watches = new Map<number, StorageWatcher>();
  const send = (m: StorageMessage) => port.send(m);
  const call = (name: string, args: unknown[]): Promise<unknown> => {
    switch (name) {
      case 'create':
        return storage.create(args[0] as string, buffer(args[1]), writeOptions(args[2]));
      case 'createBatch':
        return storage.createBatch(
          (args[0] as BatchCreate[]).map((c) => ({ key: c.key, value: buffer(c.value), options: writeOptions(c.options) })),
        );
      case 'get':
        return storage.get(args[0] as string, args[1] as { revision?: number } | undefined);
      case 'list':
        return storage.list(args[0] as string, args[1] as object | undefined);
      case 'update':
        return storage.update(args[0] as string, buffer(args[1]), args[2] as number, writeOptions(args[3]));
      case 'delete':
        return storage.delete(args[0] as string, args[1] as number | undefined, writeOptions(args[2]));
      case 'currentRevision':
        return storage.currentRevision();
      case 'compactedRevision':
        return storage.compactedRevision();
      case 'compact':
        return storage.compact(args[0] as number);
      case 'historyBoundRevision':
        return storage.historyBoundRevision(args[0] as number);
      case 'alongsideHistory':
        return storage.alongsideHistory(args[0] as string, args[1] as string, args[2] as HistoryPageOptions);
      default:
        return Promise.reject(new Error(`remote storage: unknown call ${name}`));
    }
  };
  const unsubscribe = port.onMessage((m) => {
    if (!isStorageMessage(m)) return;
    if (m.orchStorage === 'call') {
      call(m.call, m.args).then(
        (value) => send({ orchStorage: 'result', id: m.id, value }),
        (err: unknown) => send({ orchStorage: 'failure', id: m.id, error: toWire(err) }),
      );
    } else if (m.orchStorage === 'watch') {
      const id = m.watch;
      watches.set(
        id,
        storage.watch(
          m.prefix,
          { afterRevision: m.afterRevision },
          {
            onEvent: (event) => send({ orchStorage: 'event', watch: id, event }),
            onError: (err) => {
              watches.delete(id);
              send({ orchStorage: 'watchFailure', watch: id, error: toWire(err) });
            },
          },
        ),
      );
    } else if (m.orchStorage === 'unwatch') {
      watches.get(m.watch)?.stop();
      watches.delete(m.watch);
    }
  });
  return {
    close() {
      unsubscribe();
      for (const w of watches.values()) w.stop();
      watches.clear();
    },
  };
}

function buffer(v: unknown): Buffer {
  return keyValue({ key: '', value: v as Buffer, createRevision: 0, modRevision: 0 }).value;
}

/** Write options as they arrive: the alongside value came as a typed array (structured clone). */
function writeOptions(arg: unknown): WriteOptions | undefined {
  const options = arg as WriteOptions | undefined;
  if (!options?.alongside) return options;
  return { ...options, alongside: { ...options.alongside, value: buffer(options.alongside.value) } };
}
