import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timestamp } from '../../../apiserver/api/object-meta.js';

test('timestamp formats RFC 3339 at second precision, each second its own text', () => {
  assert.equal(timestamp(new Date('2024-05-01T10:00:00.250Z')), '2024-05-01T10:00:00Z');
  assert.equal(timestamp(new Date('2024-05-01T10:00:00.999Z')), '2024-05-01T10:00:00Z');
  assert.equal(timestamp(new Date('2024-05-01T10:00:01.000Z')), '2024-05-01T10:00:01Z');
  assert.equal(timestamp(new Date('2024-05-01T10:00:00.000Z')), '2024-05-01T10:00:00Z');
  assert.equal(timestamp(new Date(-1500)), '1969-12-31T23:59:58Z');
  assert.equal(timestamp(new Date(-1999)), '1969-12-31T23:59:58Z');
  assert.equal(timestamp(new Date(-1000)), '1969-12-31T23:59:59Z');
});

test('timestamp of an invalid date throws, as toISOString does', () => {
  assert.throws(() => timestamp(new Date(Number.NaN)), RangeError);
});
