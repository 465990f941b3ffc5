import { it } from 'node:test';
import assert from 'node:assert/strict';
import { newAdmissionRollback } from '../../../../apiserver/registry/generic/write-admission.js';

it('an admission rollback runs its undo steps newest first when reverted, its stored steps when committed, each once', async () => {
  const ran: string[] = [];
  const step =
    (name: string, fail = false) =>
    async () => {
      ran.push(name);
      if (fail) throw new Error(name);
    };
  const failed = newAdmissionRollback();
  failed.add(step('undo 1'));
  failed.add(step('undo 2', true));
  failed.add(step('undo 3'));
  failed.onStored(step('stored'));
  await failed.revert();
  await failed.revert();
  await failed.commit();
  assert.deepEqual(ran, ['undo 3', 'undo 2', 'undo 1']);

  ran.length = 0;
  const stored = newAdmissionRollback();
  stored.add(step('undo'));
  stored.onStored(step('stored 1', true));
  stored.onStored(step('stored 2'));
  await stored.commit();
  await stored.commit();
  await stored.revert();
  assert.deepEqual(ran, ['stored 1', 'stored 2']);
});
