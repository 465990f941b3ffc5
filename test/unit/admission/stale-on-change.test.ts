import { test } from 'node:test';
import assert from 'node:assert/strict';
import { staleOnChange } from '../../../apiserver/admission/stale-on-change.js';

test('staleOnChange: keeps a read until a change; a change during a read or a failed read is not kept', async () => {
  let reads = 0;
  let fail = false;
  let release: (() => void) | undefined;
  const v = staleOnChange(async () => {
    reads++;
    if (release) await new Promise<void>((r) => (release = r));
    if (fail) throw new Error('down');
    return reads;
  });
  assert.equal(await v.current(), 1);
  assert.equal(await v.current(), 1, 'kept');
  v.changed();
  assert.equal(await v.current(), 2, 'read again after a change');
  // A change while a read is in flight: its answer is given, not kept.
  v.changed();
  release = () => {};
  const inFlight = v.current();
  v.changed();
  release();
  release = undefined;
  assert.equal(await inFlight, 3);
  assert.equal(await v.current(), 4);
  fail = true;
  v.changed();
  await assert.rejects(v.current(), /down/);
  fail = false;
  assert.equal(await v.current(), 6, 'a failed read is not kept');
});
