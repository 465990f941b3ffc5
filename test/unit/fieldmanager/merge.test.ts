import { test } from 'node:test';
import assert from 'node:assert/strict';
import { merge } from '../../../apiserver/fieldmanager/merge.js';
import { schema, types } from './fixture.js';

const spec = (live: object, config: object) =>
  (merge({ spec: live }, { spec: config }, schema, types) as { spec: Record<string, unknown> }).spec;

test('leaves of the configuration win; granular maps merge key by key', () => {
  assert.deepEqual(
    merge(
      { metadata: { labels: { a: '1', b: '1' } }, spec: { replicas: 1 } },
      { metadata: { labels: { b: '2', c: '2' } }, spec: { replicas: 3 } },
      schema,
      types,
    ),
    {
      metadata: { labels: { a: '1', b: '2', c: '2' } },
      spec: { replicas: 3 },
    },
  );
});

test('keyed lists merge item by item: live-only items keep their place, the rest follow the configuration', () => {
  const live = {
    containers: [
      { name: 'a', image: '1' },
      { name: 'x', image: '1' },
      { name: 'b', image: '1' },
    ],
  };
  const merged = spec(live, { containers: [{ name: 'b', image: '2' }, { name: 'a' }, { name: 'c', image: '3' }] });
  assert.deepEqual(merged.containers, [
    { name: 'x', image: '1' },
    { name: 'b', image: '2' },
    { name: 'a', image: '1' },
    { name: 'c', image: '3' },
  ]);
});

test('sets merge by value; atomic lists and maps are replaced', () => {
  const merged = spec(
    { tags: ['a', 'b'], args: ['1', '2'], selector: { matchLabels: { x: '1', y: '2' } } },
    { tags: ['c', 'a'], args: ['3'], selector: { matchLabels: { z: '3' } } },
  );
  assert.deepEqual(merged, { tags: ['c', 'a', 'b'], args: ['3'], selector: { matchLabels: { z: '3' } } });
});

test('a null granular map or list in the configuration has no opinion on its items; a null leaf replaces', () => {
  assert.deepEqual(spec({ containers: [{ name: 'a' }], replicas: 2 }, { containers: null, replicas: null }), {
    containers: [{ name: 'a' }],
    replicas: null,
  });
});

test('repeated keys in the configuration are an error, in the live object they are tolerated', () => {
  assert.throws(() => spec({}, { containers: [{ name: 'a' }, { name: 'a' }] }), {
    message: '.spec.containers: duplicate entries for key [name="a"]',
  });
  assert.deepEqual(
    spec(
      {
        containers: [
          { name: 'a', image: '1' },
          { name: 'a', image: '2' },
        ],
      },
      { containers: [{ name: 'a', image: '3' }] },
    ).containers,
    [{ name: 'a', image: '3' }],
  );
});
