import type { IEvent, IKeyValue } from 'etcd3';
import type { KeyValue, StorageEvent } from '../interfaces.js';
import type { RawKeyValue } from './raw-kv.js';

/** An etcd key-value as a storage KeyValue. */
export function toKeyValue(kv: IKeyValue): KeyValue {
  return {
    key: kv.key.toString(),
    value: kv.value,
    createRevision: Number(kv.create_revision),
    modRevision: Number(kv.mod_revision),
  };
}

/** A key-value read with raw-kv.ts's codec as a storage KeyValue. */
export function fromRaw(kv: RawKeyValue): KeyValue {
  return { key: kv.key.toString(), value: kv.value, createRevision: kv.createRevision, modRevision: kv.modRevision };
}

/**
 * An etcd watch event (requested with prev_kv) as a storage event, or null when etcd could not
 * attach the previous value of an update or a delete because it was compacted away: such an event
 * cannot be delivered faithfully.
 */
export function toEvent(event: IEvent): StorageEvent | null {
  const prev = event.prev_kv ? toKeyValue(event.prev_kv) : undefined;
  if (event.type === 'Delete') {
    if (!prev) return null;
    // etcd's deletion kv is empty; the contract wants the last value at the deletion's revision.
    return { type: 'delete', kv: { ...prev, modRevision: Number(event.kv.mod_revision) }, prev };
  }
  const kv = toKeyValue(event.kv);
  if (kv.createRevision === kv.modRevision) return { type: 'put', kv };
  if (!prev) return null;
  return { type: 'put', kv, prev };
}
