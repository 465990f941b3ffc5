import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WriteTransaction } from '../../../../apiserver/registry/generic/write-transaction.js';
import type { HookTransaction } from '../../../../apiserver/registry/generic/store-hooks.js';

/** A hook transaction that records what the store asked of it. */
function recording(log: string[], name: string): HookTransaction {
  return {
    commit: async () => {
      log.push(`${name} commit`);
    },
    revert: async () => {
      log.push(`${name} revert`);
    },
  };
}

test('a write that is not committed is reverted when it ends: hooks first, then admission, once', async () => {
  const log: string[] = [];
  const txn = new WriteTransaction();
  txn.admission.add(async () => {
    log.push('admission undo');
  });
  txn.admission.onStored(async () => {
    log.push('admission stored');
  });
  txn.hooks = recording(log, 'hooks');
  await txn.end();
  await txn.end();
  assert.deepEqual(log, ['hooks revert', 'admission undo']);
});

test('a committed write commits hooks then admission, and its end undoes nothing', async () => {
  const log: string[] = [];
  const txn = new WriteTransaction();
  txn.admission.add(async () => {
    log.push('admission undo');
  });
  txn.admission.onStored(async () => {
    log.push('admission stored');
  });
  txn.hooks = recording(log, 'hooks');
  await txn.commit();
  await txn.end();
  assert.deepEqual(log, ['hooks commit', 'admission stored']);
});

test('a restarted attempt is undone and the next one records afresh', async () => {
  const log: string[] = [];
  const txn = new WriteTransaction();
  const first = txn.admission;
  first.add(async () => {
    log.push('first undo');
  });
  txn.hooks = recording(log, 'first hooks');
  await txn.restart();
  assert.notEqual(txn.admission, first, 'a new rollback for the next attempt');
  txn.admission.add(async () => {
    log.push('second undo');
  });
  txn.hooks = recording(log, 'second hooks');
  await txn.commit();
  await txn.end();
  assert.deepEqual(log, ['first hooks revert', 'first undo', 'second hooks commit']);
});
