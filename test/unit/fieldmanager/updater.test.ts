import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldSet } from '../../../apiserver/fieldmanager/field-set.js';
import { setToFields } from '../../../apiserver/fieldmanager/fields-v1.js';
import { fieldElement, pathString } from '../../../apiserver/fieldmanager/path-element.js';
import { ApplyConflicts, Updater, type ManagedFieldSets } from '../../../apiserver/fieldmanager/updater.js';
import { schema, types } from './fixture.js';

const updater = new Updater(types, schema, FieldSet.of([fieldElement('status')]));
const owned = (m: ManagedFieldSets) => Object.fromEntries([...m].map(([k, v]) => [k, v.set.paths().map(pathString)]));
const conflictsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApplyConflicts) return err.conflicts.map((c) => `${c.manager} ${pathString(c.path)}`);
    throw err;
  }
  assert.fail('expected conflicts');
};

test('update: the writer takes what it added or changed, silently; removed fields leave every owner', () => {
  let m = updater.update({}, { spec: { replicas: 1, args: ['a'] } }, 'v1', new Map(), 'creator');
  assert.deepEqual(owned(m), { creator: ['.spec', '.spec.args', '.spec.replicas'] });
  m = updater.update({ spec: { replicas: 1, args: ['a'] } }, { spec: { replicas: 2 } }, 'v1', m, 'scaler');
  assert.deepEqual(owned(m), { creator: ['.spec'], scaler: ['.spec.replicas'] });
});

test('update: fields the strategy resets (status) are owned by nobody', () => {
  const m = updater.update({}, { status: { phase: 'x' }, spec: { replicas: 1 } }, 'v1', new Map(), 'w');
  assert.deepEqual(owned(m), { w: ['.spec', '.spec.replicas'] });
});

test('apply: the applier owns exactly its configuration; the same value applied twice is shared', () => {
  const cfg = { spec: { replicas: 3, containers: [{ name: 'a', image: 'x' }] } };
  let r = updater.apply({}, cfg, 'v1', new Map(), 'one', false);
  r = updater.apply(r.object, cfg, 'v1', r.managers, 'two', false);
  assert.equal(r.object, null, 'nothing changed');
  assert.deepEqual(owned(r.managers).one, owned(r.managers).two);
  assert.deepEqual(
    JSON.stringify(setToFields(r.managers.get('one')!.set)),
    '{"f:spec":{"f:containers":{"k:{\\"name\\":\\"a\\"}":{".":{},"f:image":{},"f:name":{}}},"f:replicas":{}}}',
  );
});

test('apply: changing a field another manager owns is a conflict naming every field and owner', () => {
  const live = { spec: { replicas: 3, args: ['a'], containers: [{ name: 'a', image: 'x' }] } };
  const m = updater.update({}, live, 'v1', new Map(), 'creator');
  const cfg = { spec: { replicas: 5, args: ['b'], containers: [{ name: 'a', image: 'x' }] } };
  assert.deepEqual(
    conflictsOf(() => updater.apply(live, cfg, 'v1', m, 'applier', false)),
    ['creator .spec.args', 'creator .spec.replicas'],
  );
});

test('apply with force takes the conflicting fields; shared fields stay shared', () => {
  const live = { spec: { replicas: 3, args: ['a'] } };
  const m = updater.update({}, live, 'v1', new Map(), 'creator');
  const r = updater.apply(live, { spec: { replicas: 5, args: ['a'] } }, 'v1', m, 'applier', true);
  assert.deepEqual(r.object, { spec: { replicas: 5, args: ['a'] } });
  assert.deepEqual(owned(r.managers), { creator: ['.spec', '.spec.args'], applier: ['.spec.args', '.spec.replicas'] });
});

test('apply: a dropped field is removed unless another manager owns it', () => {
  const live = { spec: { replicas: 3, args: ['a'], containers: [{ name: 'a' }, { name: 'b' }] } };
  let r = updater.apply({}, live, 'v1', new Map(), 'one', false);
  r = updater.apply(live, { spec: { args: ['a'], containers: [{ name: 'b' }] } }, 'v1', r.managers, 'two', false);
  assert.equal(r.object, null, 'co-owning changes nothing');
  r = updater.apply(live, { spec: {} }, 'v1', r.managers, 'one', false);
  assert.deepEqual(r.object, { spec: { args: ['a'], containers: [{ name: 'b' }] } });
});

test('apply: an item the applier drops is removed even when an updater owns fields in it', () => {
  const applied = { spec: { containers: [{ name: 'a', image: 'x' }] } };
  let r = updater.apply({}, applied, 'v1', new Map(), 'applier', false);
  const withEnv = { spec: { containers: [{ name: 'a', image: 'x', env: [{ name: 'E', value: '1' }] }] } };
  const m = updater.update(applied, withEnv, 'v1', r.managers, 'controller');
  r = updater.apply(withEnv, { spec: { containers: [] } }, 'v1', m, 'applier', false);
  assert.deepEqual(r.object, { spec: { containers: null } });
  assert.deepEqual(owned(r.managers), {});
});
