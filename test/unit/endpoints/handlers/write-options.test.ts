import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isApiError } from '../../../../apiserver/api/status.js';
import { managerFromUserAgent, parseFieldManagerOptions } from '../../../../apiserver/endpoints/handlers/write-options.js';

const parse = (query: string, kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' = 'PatchOptions', apply = false, ua?: string) =>
  parseFieldManagerOptions(new URLSearchParams(query), ua, 'meta.orch.io', kind, apply);

test('the manager defaults to the user agent up to its first "/"', () => {
  assert.equal(managerFromUserAgent('kubectl/v1.28.0 (linux/amd64) kubernetes/abc'), 'kubectl');
  assert.equal(managerFromUserAgent('my\u0007-agent/1'), 'my-agent');
  assert.equal(managerFromUserAgent('x'.repeat(200)), 'x'.repeat(128));
  assert.equal(managerFromUserAgent(undefined), '');
  assert.deepEqual(parse('', 'UpdateOptions', false, 'curl/8.0'), { manager: 'curl', force: false });
  assert.deepEqual(parse('fieldManager=mine', 'CreateOptions', false, 'curl/8.0'), { manager: 'mine', force: false });
});

test('apply requires fieldManager and takes force; other patches may not send force', () => {
  assert.deepEqual(parse('fieldManager=m&force=true', 'PatchOptions', true), { manager: 'm', force: true });
  assert.throws(
    () => parse('', 'PatchOptions', true),
    (err: unknown) => {
      assert.ok(isApiError(err, 'BadRequest'));
      assert.equal(
        err.status.message,
        'PatchOptions.meta.orch.io "" is invalid: fieldManager: Required value: is required for apply patch',
      );
      assert.deepEqual(err.status.details?.causes, [
        { reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' },
      ]);
      return true;
    },
  );
  assert.throws(() => parse('force=false'), {
    message: 'PatchOptions.meta.orch.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
  });
});

test('fieldManager must be at most 128 bytes of printable characters', () => {
  assert.throws(
    () => parse(`fieldManager=${'m'.repeat(129)}`, 'CreateOptions'),
    (err: unknown) =>
      isApiError(err, 'BadRequest') &&
      err.status.details?.causes?.[0].field === 'fieldManager' &&
      err.status.details.kind === 'CreateOptions',
  );
  assert.throws(
    () => parse('fieldManager=a%07b', 'UpdateOptions'),
    (err: unknown) =>
      isApiError(err) && err.status.details?.causes?.[0].message === 'Invalid value: "a\\ab": invalid character U+0007 (at position 1)',
  );
});
