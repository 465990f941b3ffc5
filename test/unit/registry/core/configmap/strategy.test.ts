import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../../apiserver/api/object.js';
import { configMapStrategy } from '../../../../../apiserver/registry/core/configmap/strategy.js';

const cm = (data: Record<string, string>, binaryData?: Record<string, string>): ApiObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'ns' },
  data,
  ...(binaryData ? { binaryData } : {}),
});
const validate = (obj: ApiObject) => configMapStrategy.validate!(obj, {} as never).map((e) => `${e.type} ${e.detail}`);
const TOO_LONG = ['FieldValueTooLong may not be more than 1048576 bytes'];

test('a ConfigMap holds at most 1 MiB, counted in UTF-8 bytes of data values and decoded bytes of binaryData (keys do not count, as in Kubernetes)', () => {
  assert.deepEqual(validate(cm({ payload: 'x'.repeat(1024) })), []);
  // Short in characters, long in bytes: '€' is three UTF-8 bytes.
  assert.deepEqual(validate(cm({ euro: '€'.repeat(349_000) })), []);
  assert.deepEqual(validate(cm({ euro: '€'.repeat(350_000) })), TOO_LONG);
  assert.deepEqual(validate(cm({ a: 'a'.repeat(600_000), b: 'b'.repeat(448_000) })), []);
  assert.deepEqual(validate(cm({ a: 'a'.repeat(600_000), b: 'b'.repeat(448_600) })), TOO_LONG);
  const base64 = (n: number) => Buffer.alloc(n, 7).toString('base64');
  assert.deepEqual(validate(cm({}, { bin: base64(1_048_576) })), []);
  assert.deepEqual(validate(cm({}, { bin: base64(1_048_577) })), TOO_LONG);
  assert.deepEqual(validate(cm({ k: 'x' }, { bin: base64(1_048_575) })), []);
  assert.deepEqual(validate(cm({ k: 'xx' }, { bin: base64(1_048_575) })), TOO_LONG);
  // 100,000 keys of 6 characters and values of 5: 500 kB of values, though 1.1 MB with the keys.
  const many: Record<string, string> = {};
  for (let i = 0; i < 100_000; i++) many[`k${String(i).padStart(5, '0')}`] = 'v'.repeat(5);
  assert.deepEqual(validate(cm(many)), []);
});
