import type { KeyValue, StorageEvent } from '../interfaces.js';
import type { Row } from './schema.js';

/** The key's value as of this row (for a tombstone: the last value, at the deletion's revision). */
export function rowToKeyValue(row: Pick<Row, 'name' | 'value' | 'created' | 'id' | 'create_revision'>): KeyValue {
  return {
    key: row.name.toString(),
    value: row.value,
    createRevision: row.created ? row.id : row.create_revision,
    modRevision: row.id,
  };
}

/** The watch event a row stands for; its previous value comes from the row itself (old_value). */
export function rowToEvent(row: Row): StorageEvent {
  const kv = rowToKeyValue(row);
  const type = row.deleted ? 'delete' : 'put';
  if (row.created) return { type, kv };
  const prev: KeyValue = {
    key: kv.key,
    value: row.old_value,
    createRevision: kv.createRevision,
    modRevision: row.prev_revision,
  };
  return { type, kv, prev };
}
