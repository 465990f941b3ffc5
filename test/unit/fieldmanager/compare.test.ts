import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compare, excludeFields } from '../../../apiserver/fieldmanager/compare.js';
import { FieldSet } from '../../../apiserver/fieldmanager/field-set.js';
import { fieldElement, pathString } from '../../../apiserver/fieldmanager/path-element.js';
import { schema, types } from './fixture.js';

const diff = (lhs: unknown, rhs: unknown) => {
  const c = compare(lhs, rhs, schema, types);
  return {
    added: c.added.paths().map(pathString),
    modified: c.modified.paths().map(pathString),
    removed: c.removed.paths().map(pathString),
  };
};

test('leaves added, modified and removed; new granular maps and items are added themselves', () => {
  assert.deepEqual(diff({ spec: { replicas: 1, args: ['a'] } }, { metadata: { labels: { app: 'x' } }, spec: { replicas: 2 } }), {
    added: ['.metadata', '.metadata.labels', '.metadata.labels.app'],
    modified: ['.spec.replicas'],
    removed: ['.spec.args'],
  });
});

test('list items compare by key; an atomic list compares as one leaf', () => {
  const before = {
    spec: {
      containers: [
        { name: 'a', image: '1' },
        { name: 'b', image: '1' },
      ],
      args: ['x'],
    },
  };
  const after = {
    spec: {
      containers: [
        { name: 'b', image: '2' },
        { name: 'c', image: '1' },
      ],
      args: ['x', 'y'],
    },
  };
  assert.deepEqual(diff(before, after), {
    added: ['.spec.containers[name="c"]', '.spec.containers[name="c"].image', '.spec.containers[name="c"].name'],
    modified: ['.spec.args', '.spec.containers[name="b"].image'],
    removed: ['.spec.containers[name="a"]', '.spec.containers[name="a"].image', '.spec.containers[name="a"].name'],
  });
});

test('empty and absent containers compare as leaves, so {} vs absent is a change', () => {
  assert.deepEqual(diff({ spec: {} }, { spec: { strategy: {} } }), { added: ['.spec.strategy'], modified: [], removed: [] });
  assert.deepEqual(diff({ spec: { strategy: {} } }, { spec: { strategy: {} } }), { added: [], modified: [], removed: [] });
});

test('excluded fields leave the comparison with everything below them', () => {
  const c = excludeFields(
    compare({ status: { phase: 'a' } }, { status: { phase: 'b' }, spec: { replicas: 1 } }, schema, types),
    FieldSet.of([fieldElement('status')]),
  );
  assert.deepEqual(c.modified.paths(), []);
  assert.deepEqual(c.added.paths().map(pathString), ['.spec', '.spec.replicas']);
});
