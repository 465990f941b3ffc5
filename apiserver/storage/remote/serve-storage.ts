/**
 * The owner's side of remote storage: answers one peer's calls on the real store and pushes its
 * watches' events, in order, as they happen. One per peer; `close()` stops the peer's watches.
 */
import type { Storage, StorageWatcher, WriteOptions } from '../interfaces.js';
import {
  type CallArgs,
  type CallMessage,
  type CallResult,
  isStorageMessage,
  buffer,
  type MessagePortLike,
  type StorageCall,
  type StorageMessage,
  toWire,
} from './protocol.js';

export interface ServedPeer {
  close(): void;
}

export function serveStorage(storage: Storage, port: MessagePortLike): ServedPeer {
  const watches = new Map<number, StorageWatcher>();
  const send = (m: StorageMessage) => port.send(m);
  /** Each call, on the real store: arguments as they arrive (Buffers as typed arrays), wrapped again. */
  const calls: { [C in StorageCall]: (...args: CallArgs<C>) => Promise<CallResult<C>> } = {
    create: (key, value, options) => storage.create(key, buffer(value), writeOptions(options)),
    createBatch: (creates) =>
      storage.createBatch(creates.map((c) => ({ key: c.key, value: buffer(c.value), options: writeOptions(c.options) }))),
    get: (key, options) => storage.get(key, options),
    list: (prefix, options) => storage.list(prefix, options),
    update: (key, value, expectedModRevision, options) => storage.update(key, buffer(value), expectedModRevision, writeOptions(options)),
    delete: (key, expectedModRevision, options) => storage.delete(key, expectedModRevision, writeOptions(options)),
    currentRevision: () => storage.currentRevision(),
    compactedRevision: () => storage.compactedRevision(),
    compact: (revision) => storage.compact(revision),
    historyBoundRevision: (maxBytes) => storage.historyBoundRevision(maxBytes),
    alongsideHistory: (key, ownerKey, options) => storage.alongsideHistory(key, ownerKey, options),
  };
  const call = <C extends StorageCall>(m: CallMessage<C>): Promise<CallResult<StorageCall>> => {
    // A peer built from another version may name a call this side does not have.
    if (!Object.hasOwn(calls, m.call)) return Promise.reject(new Error(`remote storage: unknown call ${m.call}`));
    const method: (...args: CallArgs<C>) => Promise<CallResult<C>> = calls[m.call];
    return method(...m.args);
  };
  const unsubscribe = port.onMessage((m) => {
    if (!isStorageMessage(m)) return;
    if (m.orchStorage === 'call') {
      call(m).then(
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

/** Write options as they arrive: the alongside value came as a typed array (structured clone). */
function writeOptions<O extends Pick<WriteOptions, 'alongside'>>(options: O | undefined): O | undefined {
  if (!options?.alongside) return options;
  return { ...options, alongside: { ...options.alongside, value: buffer(options.alongside.value) } };
}
