/** What the conformance tests share: the running test's store and key prefix, and small helpers. */
import assert from 'node:assert/strict';
import { isStorageError, type StorageError, type StorageErrorCode } from '../../../apiserver/storage/errors.js';
import type { KeyValue, Storage } from '../../../apiserver/storage/interfaces.js';

export interface Fixture {
  storage: Storage;
  /** The running test's own key prefix (ends in '/'). */
  ns: string;
}

export function buf(text: string): Buffer {
  return Buffer.from(text);
}

/** The startKey of the page after this one. */
export function nextKey(page: { items: KeyValue[] }): string {
  return `${page.items[page.items.length - 1].key}\0`;
}

/** Asserts that promise rejects with a StorageError of code, and returns that error. */
export async function rejectsWith(promise: Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(isStorageError(err, code), `expected StorageError ${code}, got ${String(err)}`);
    return err;
  }
  assert.fail(`expected StorageError ${code}, but the call succeeded`);
}
