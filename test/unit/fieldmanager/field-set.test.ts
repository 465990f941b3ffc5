import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldSet } from '../../../apiserver/fieldmanager/field-set.js';
import { fieldElement as f, keyElement, pathString, type Path } from '../../../apiserver/fieldmanager/path-element.js';

const p = (...names: string[]): Path => names.map((n) => f(n));
const paths = (s: FieldSet) => s.paths().map(pathString);

test('insert, has, and the empty path (the whole object) is never tracked', () => {
  const s = FieldSet.of(p('spec', 'replicas'), p('metadata', 'labels', 'app'));
  assert.ok(s.has(p('spec', 'replicas')));
  assert.ok(!s.has(p('spec')));
  s.insert([]);
  assert.deepEqual(paths(s), ['.metadata.labels.app', '.spec.replicas']);
});

test("paths come depth first: a level's members, then its children, each in set order", () => {
  const s = FieldSet.of(p('spec', 'b'), p('spec'), p('a'), p('spec', 'x', 'y'), [f('spec'), f('ports'), keyElement([['port', 80]])]);
  assert.deepEqual(paths(s), ['.a', '.spec', '.spec.b', '.spec.ports[port=80]', '.spec.x.y']);
});

test('union, intersection and difference work path by path', () => {
  const a = FieldSet.of(p('a'), p('b', 'c'), p('b', 'd'));
  const b = FieldSet.of(p('b', 'd'), p('e'));
  assert.deepEqual(paths(a.union(b)), ['.a', '.e', '.b.c', '.b.d']);
  assert.deepEqual(paths(a.intersection(b)), ['.b.d']);
  assert.deepEqual(paths(a.difference(b)), ['.a', '.b.c']);
  assert.ok(a.intersection(FieldSet.of(p('z'))).isEmpty());
});

test('difference keeps what is below a removed member; recursiveDifference drops it', () => {
  const a = FieldSet.of(p('status'), p('status', 'phase'), p('spec', 'x'));
  const status = FieldSet.of(p('status'));
  assert.deepEqual(paths(a.difference(status)), ['.spec.x', '.status.phase']);
  assert.deepEqual(paths(a.recursiveDifference(status)), ['.spec.x']);
});

test('withPrefix gives the paths below an element; sets never keep empty children', () => {
  const a = FieldSet.of(p('spec', 'x'), p('spec', 'y'));
  assert.deepEqual(paths(a.withPrefix(f('spec'))), ['.x', '.y']);
  assert.ok(a.withPrefix(f('nope')).isEmpty());
  const emptied = a.difference(FieldSet.of(p('spec', 'x'), p('spec', 'y')));
  assert.ok(emptied.isEmpty());
  assert.deepEqual(emptied.sortedChildren(), []);
});
