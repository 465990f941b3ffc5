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

test('a ConfigMap holds at most 1 MiB, counted in UTF-8 bytes of data and decoded bytes of binaryData', () => {
  assert.deepEqual(validate(cm({ payload: 'x'.repeat(1024) })), []);
  // Short in characters, long in bytes: '€' is three UTF-8 bytes.
  assert.deepEqual(validate(cm({ euro: '€'.repeat(349_000) })), []);
  assert.deepEqual(validate(cm({ euro: '€'.repeat(350_000) })), TOO_LONG);
  assert.deepEqual(validate(cm({ a: 'a'.repeat(600_000), b: 'b'.repeat(448_000) })), []);
  assert.deepEqual(validate(cm({ a: 'a'.repeat(600_000), b: 'b'.repeat(448_600) })), TOO_LONG);
  const base64 = (n: number) => Buffer.alloc(n, 7).toString('base64');
  assert.deepEqual(validate(cm({}, { bin: base64(1_048_573) })), []);
  assert.deepEqual(validate(cm({}, { bin: base64(1_048_574) })), TOO_LONG);
  assert.deepEqual(validate(cm({ k: 'x' }, { bin: base64(1_048_572) })), TOO_LONG);
});
