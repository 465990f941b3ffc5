/**
 * The messages between a store's owner and the processes using it remotely (remote-storage.ts,
 * serve-storage.ts), over any ordered message channel that keeps typed arrays (structured clone:
 * Node's 'advanced' IPC serialization, MessagePort). Every message carries `orchStorage`, so the
 * channel can carry other traffic too.
 */
import { isPlainObject } from '../../api/object.js';
import { StorageError, type StorageErrorCode } from '../errors.js';
import type { KeyValue, Storage, StorageEvent } from '../interfaces.js';

/** An ordered, reliable message channel to the other side. */
export interface MessagePortLike {
  send(message: unknown): void;
  /** Subscribes to incoming messages; returns the unsubscribe. */
  onMessage(listener: (message: unknown) => void): () => void;
}

export type StorageCall =
  | 'create'
  | 'createBatch'
  | 'get'
  | 'list'
  | 'update'
  | 'delete'
  | 'currentRevision'
  | 'compactedRevision'
  | 'compact'
  | 'historyBoundRevision'
  | 'alongsideHistory';

/**
 * A call's arguments as they travel: the Storage method's own. (A Buffer arrives as a plain
 * Uint8Array, a Buffer's base class; the owner wraps it again, see keyValue.)
 */
export type CallArgs<C extends StorageCall> = Parameters<Storage[C]>;
/** What the owner answers a call with: the Storage method's result. */
export type CallResult<C extends StorageCall> = Awaited<ReturnType<Storage[C]>>;

/** A call of one method, its name and arguments together, so the name narrows the arguments. */
export type CallMessage<C extends StorageCall = StorageCall> = {
  [K in C]: { orchStorage: 'call'; id: number; call: K; args: CallArgs<K> };
}[C];

/** Every message; a sender of one call's message names its call (C). */
export type StorageMessage<C extends StorageCall = StorageCall> =
  | CallMessage<C>
  /** The answer to call `id`: its CallResult (the id says which call it was). */
  | { orchStorage: 'result'; id: number; value: CallResult<StorageCall> }
  | { orchStorage: 'failure'; id: number; error: WireError }
  | { orchStorage: 'watch'; watch: number; prefix: string; afterRevision: number }
  | { orchStorage: 'unwatch'; watch: number }
  | { orchStorage: 'event'; watch: number; event: StorageEvent }
  | { orchStorage: 'watchFailure'; watch: number; error: WireError };

/** An error as it travels: a StorageError keeps its code and details, anything else its message. */
export interface WireError {
  message: string;
  storage?: { code: StorageErrorCode; key: string; current?: KeyValue; revision?: number; requestedRevision?: number };
}

export function isStorageMessage(m: unknown): m is StorageMessage {
  return isPlainObject(m) && typeof m.orchStorage === 'string';
}

export function toWire(err: unknown): WireError {
  if (err instanceof StorageError) {
    const { code, key, current, revision, requestedRevision } = err;
    return { message: err.message, storage: { code, key, current, revision, requestedRevision } };
  }
  return { message: err instanceof Error ? err.message : String(err) };
}

export function fromWire(wire: WireError): Error {
  const s = wire.storage;
  if (!s) return new Error(wire.message);
  return new StorageError(s.code, s.key, {
    current: s.current && keyValue(s.current),
    revision: s.revision,
    requestedRevision: s.requestedRevision,
  });
}

/** A KeyValue whose value arrived as a plain Uint8Array, as a Buffer again (no copy). */
export function keyValue(kv: KeyValue): KeyValue {
  return Buffer.isBuffer(kv.value) ? kv : { ...kv, value: buffer(kv.value) };
}

/** A Buffer that arrived as a plain Uint8Array (its base class), as a Buffer again (no copy). */
export function buffer(v: Uint8Array): Buffer {
  return Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

export function storageEvent(e: StorageEvent): StorageEvent {
  return e.prev ? { type: e.type, kv: keyValue(e.kv), prev: keyValue(e.prev) } : { type: e.type, kv: keyValue(e.kv) };
}
