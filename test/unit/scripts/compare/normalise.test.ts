import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalise, normaliseWarnings, VOLATILE } from '../../../../scripts/compare/normalise.js';

test('server-made values are replaced, their presence kept', () => {
  const got = normalise({
    metadata: {
      name: 'a',
      uid: 'u-1',
      resourceVersion: '42',
      creationTimestamp: '2024-01-01T00:00:00Z',
      managedFields: [{ manager: 'm', time: 't' }],
    },
    spec: { clusterIP: '10.0.0.7', clusterIPs: ['10.0.0.7'], ports: [{ port: 80, nodePort: 30123 }] },
  });
  assert.deepEqual(got, {
    metadata: {
      name: 'a',
      uid: VOLATILE,
      resourceVersion: VOLATILE,
      creationTimestamp: VOLATILE,
      managedFields: [{ manager: 'm', time: VOLATILE }],
    },
    spec: { clusterIP: VOLATILE, clusterIPs: [VOLATILE], ports: [{ port: 80, nodePort: VOLATILE }] },
  });
});

test('empty and null volatile values stay as they are, so "" against a value is still a difference', () => {
  assert.deepEqual(normalise({ metadata: { resourceVersion: '', continue: '' }, spec: { clusterIP: null } }), {
    metadata: { resourceVersion: '', continue: '' },
    spec: { clusterIP: null },
  });
});

test('a generated name keeps its prefix only', () => {
  assert.deepEqual(normalise({ metadata: { generateName: 'gen-', name: 'gen-x7k2p' } }), {
    metadata: { generateName: 'gen-', name: `gen-${VOLATILE}` },
  });
  assert.deepEqual(normalise({ metadata: { generateName: 'gen-', name: 'other' } }), { metadata: { generateName: 'gen-', name: 'other' } });
});

test('non-volatile values and arrays are copied, not shared', () => {
  const input = { data: { a: '1' }, items: [{ x: 1 }] };
  const got = normalise(input) as typeof input;
  assert.deepEqual(got, input);
  assert.notEqual(got.items, input.items);
});

test('Warning headers become their sorted texts', () => {
  assert.deepEqual(normaliseWarnings(undefined), []);
  assert.deepEqual(normaliseWarnings('299 - "b: deprecated", 299 - "a \\"quoted\\""'), ['a "quoted"', 'b: deprecated']);
  assert.deepEqual(normaliseWarnings(['299 - "one"', '299 - "two"']), ['one', 'two']);
});

test('generated token volume names and copied uids are volatile', () => {
  assert.deepEqual(
    normalise({ name: 'kube-api-access-x7k2p', uidLabel: '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0', other: 'kube-api-access' }),
    {
      name: `kube-api-access-${VOLATILE}`,
      uidLabel: VOLATILE,
      other: 'kube-api-access',
    },
  );
});
