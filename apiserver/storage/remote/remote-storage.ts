/**
 * Storage in another process (the one that owns the embedded store's file and revision sequence),
 * reached over an ordered message channel (protocol.ts). Every call is forwarded and answered in
 * order; a watch is opened on the owner, which pushes each event as it happens, so a remote watch
 * sees every write in revision order with the latency of one message, no polling.
 */
import type {
  AlongsideHistory,
  BatchCreate,
  KeyValue,
  ListOptions,
  ListResult,
  Storage,
  StorageWatcher,
  WatchHandlers,
  WatchOptions,
  WriteOptions,
  HistoryPageOptions,
} from '../interfaces.js';
import { StorageError } from '../errors.js';
import { WatchSink } from '../watch-sink.js';
import {
  fromWire,
  isStorageMessage,
  keyValue,
  type CallArgs,
  type CallMessage,
  type CallResult,
  type MessagePortLike,
  type StorageCall,
  type StorageMessage,
  storageEvent,
} from './protocol.js';

export function newRemoteStorage(port: MessagePortLike): Storage {
  return new RemoteStorage(port);
}

class RemoteStorage implements Storage {
  /** Mutable state in one object: it stays shared when the storage is used as a prototype (a wrapper's). */
  private readonly state = { nextId: 1, closed: false };
  private readonly pending = new Map<number, { resolve(v: CallResult<StorageCall>): void; reject(e: Error): void }>();
  private readonly watches = new Map<number, WatchSink>();
  private readonly unsubscribe: () => void;

  constructor(private readonly port: MessagePortLike) {
    this.unsubscribe = port.onMessage((m) => this.receive(m));
  }

  async create(key: string, value: Buffer, options?: WriteOptions): Promise<KeyValue> {
    return keyValue(await this.call('create', [key, value, options]));
  }

  async createBatch(creates: BatchCreate[]): Promise<KeyValue[]> {
    return (await this.call('createBatch', [creates])).map(keyValue);
  }

  async get(key: string, options?: { revision?: number }): Promise<KeyValue | null> {
    const kv = await this.call('get', options?.revision ? [key, options] : [key]);
    return kv && keyValue(kv);
  }

  async list(prefix: string, options?: ListOptions): Promise<ListResult> {
    const page = await this.call('list', [prefix, options]);
    return { ...page, items: page.items.map(keyValue) };
  }

  async update(key: string, value: Buffer, expectedModRevision: number, options?: WriteOptions): Promise<KeyValue> {
    return keyValue(await this.call('update', [key, value, expectedModRevision, options]));
  }

  async delete(key: string, expectedModRevision?: number, options?: Pick<WriteOptions, 'alongside'>): Promise<KeyValue> {
    return keyValue(await this.call('delete', [key, expectedModRevision, options]));
  }

  watch(prefix: string, options: WatchOptions, handlers: WatchHandlers): StorageWatcher {
    const id = this.state.nextId++;
    const sink = new WatchSink(handlers, () => {
      this.watches.delete(id);
      if (!this.state.closed) this.send({ orchStorage: 'unwatch', watch: id });
    });
    if (this.state.closed) {
      sink.fail(new StorageError('Unavailable', prefix));
      return sink;
    }
    this.watches.set(id, sink);
    this.send({ orchStorage: 'watch', watch: id, prefix, afterRevision: options.afterRevision });
    return sink;
  }

  async currentRevision(): Promise<number> {
    return this.call('currentRevision', []);
  }

  async compactedRevision(): Promise<number> {
    return this.call('compactedRevision', []);
  }

  async historyBoundRevision(maxBytes: number): Promise<number> {
    return this.call('historyBoundRevision', [maxBytes]);
  }

  async alongsideHistory(key: string, ownerKey: string, options: HistoryPageOptions): Promise<AlongsideHistory> {
    const history = await this.call('alongsideHistory', [key, ownerKey, options]);
    const writes = history.writes.map((w) => ({ alongside: keyValue(w.alongside), owner: w.owner && keyValue(w.owner) }));
    return { ...history, writes, newest: history.newest && keyValue(history.newest) };
  }

  async compact(revision: number): Promise<void> {
    await this.call('compact', [revision]);
  }

  async close(): Promise<void> {
    for (const sink of [...this.watches.values()]) sink.stop();
    this.state.closed = true;
    this.unsubscribe();
    for (const p of this.pending.values()) p.reject(new StorageError('Unavailable', ''));
    this.pending.clear();
  }

  private call<C extends StorageCall>(call: C, args: CallArgs<C>): Promise<CallResult<C>> {
    if (this.state.closed) return Promise.reject(new StorageError('Unavailable', String(args[0] ?? '')));
    const id = this.state.nextId++;
    return new Promise((resolve, reject) => {
      // The protocol's one trust point: the owner answers call `id` with what Storage[C] returns
      // (serve-storage.ts's table is typed so), and a result message does not repeat the call's name.
      this.pending.set(id, { resolve: (value) => resolve(value as CallResult<C>), reject });
      const message: CallMessage<C> = { orchStorage: 'call', id, call, args };
      this.send(message);
    });
  }

  private send<C extends StorageCall>(m: StorageMessage<C>): void {
    this.port.send(m);
  }

  private receive(m: unknown): void {
    if (!isStorageMessage(m)) return;
    switch (m.orchStorage) {
      case 'result':
      case 'failure': {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.orchStorage === 'result') p.resolve(m.value);
        else p.reject(fromWire(m.error));
        return;
      }
      case 'event':
        this.watches.get(m.watch)?.push(storageEvent(m.event));
        return;
      case 'watchFailure':
        this.watches.get(m.watch)?.fail(fromWire(m.error));
        return;
    }
  }
}
