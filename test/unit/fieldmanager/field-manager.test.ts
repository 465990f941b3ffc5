import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../apiserver/api/object.js';
import { isApiError } from '../../../apiserver/api/status.js';
import { FieldManager } from '../../../apiserver/fieldmanager/field-manager.js';
import { LAST_APPLIED_ANNOTATION } from '../../../apiserver/fieldmanager/last-applied.js';
import { def, definitions } from './fixture.js';

const T1 = new Date('2024-05-01T10:00:00Z');
const T2 = new Date('2024-05-01T11:00:00Z');

function manager(opts: { now?: Date; subresource?: string } = {}): FieldManager {
  return new FieldManager({
    def,
    definitions,
    subresource: opts.subresource ?? '',
    now: opts.now ?? T1,
    applyDefaults: (obj) => {
      const spec = obj.spec as { replicas?: number } | undefined;
      if (spec && spec.replicas === undefined) spec.replicas = 1;
    },
  });
}

const widget = (spec: object, metadata: object = {}): ApiObject => ({
  apiVersion: 'test.orch.io/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'ns', ...metadata },
  spec,
});
const entries = (obj: ApiObject) => obj.metadata.managedFields ?? [];
const summary = (obj: ApiObject) =>
  entries(obj).map((e) => `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''} ${JSON.stringify(e.fieldsV1)}`);

test('a create records the creator as an Update entry with the request time', () => {
  const created = manager().update(null, widget({ replicas: 2 }, { labels: { app: 'x' } }), 'kubectl-create');
  assert.deepEqual(created.metadata.managedFields, [
    {
      manager: 'kubectl-create',
      operation: 'Update',
      apiVersion: 'test.orch.io/v1',
      time: '2024-05-01T10:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:replicas': {} } },
    },
  ]);
});

test('an update that changes nothing keeps the entry and its time; one that changes fields moves the time', () => {
  const live = manager().update(null, widget({ replicas: 2 }), 'ctl');
  const same = manager({ now: T2 }).update(live, widget({ replicas: 2 }), 'ctl');
  assert.deepEqual(same.metadata.managedFields, live.metadata.managedFields);
  const changed = manager({ now: T2 }).update(live, widget({ replicas: 3 }), 'ctl');
  assert.equal(entries(changed)[0].time, '2024-05-01T11:00:00Z');
});

test('managedFields of an update: absent, [] or invalid keep the live ones; valid ones replace them', () => {
  const live = manager().update(null, widget({ replicas: 2 }), 'creator');
  for (const managedFields of [undefined, [], [{ manager: 'x', operation: 'Bogus' }]]) {
    const next = manager().update(live, widget({ replicas: 2 }, { managedFields }), 'u');
    assert.deepEqual(next.metadata.managedFields, live.metadata.managedFields, JSON.stringify(managedFields));
  }
  const edited = [
    {
      manager: 'other',
      operation: 'Update',
      apiVersion: 'test.orch.io/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
    },
  ];
  assert.deepEqual(summary(manager().update(live, widget({ replicas: 2 }, { managedFields: edited }), 'u')), [
    'other/Update {"f:spec":{"f:replicas":{}}}',
  ]);
});

test('managedFields [{}] reset ownership first; the requester then owns what it changed', () => {
  const live = manager().update(null, widget({ replicas: 2 }, { labels: { a: '1' } }), 'creator');
  assert.equal(
    manager().update(live, widget({ replicas: 2 }, { labels: { a: '1' }, managedFields: [{}] }), 'u').metadata.managedFields,
    undefined,
  );
  const changed = manager().update(live, widget({ replicas: 5 }, { labels: { a: '1' }, managedFields: [{}] }), 'u');
  assert.deepEqual(summary(changed), ['u/Update {"f:spec":{"f:replicas":{}}}']);
});

test('a status write is its own entry; it cannot rewrite managedFields and owns nothing outside status', () => {
  const live = manager().update(null, widget({ replicas: 2 }), 'creator');
  const next = { ...widget({ replicas: 9 }, { managedFields: [{}] }), status: { phase: 'Running' } };
  assert.deepEqual(summary(manager({ subresource: 'status' }).update(live, next, 'kubelet')), [
    'creator/Update {"f:spec":{"f:replicas":{}}}',
    'kubelet/Update/status {"f:status":{".":{},"f:phase":{}}}',
  ]);
});

test('past ten update managers, the oldest are merged into ancient-changes', () => {
  let obj = manager().update(null, widget({}, { labels: { m0: 'x' } }), 'm0');
  for (let i = 1; i <= 11; i++) {
    const labels = { ...obj.metadata.labels, [`m${i}`]: 'x' };
    obj = manager({ now: new Date(T1.getTime() + i * 1000) }).update(
      obj,
      widget({}, { labels, managedFields: obj.metadata.managedFields }),
      `m${i}`,
    );
  }
  const names = entries(obj).map((e) => e.manager);
  assert.equal(names.length, 10);
  assert.ok(names.includes('ancient-changes'));
  assert.deepEqual(
    Object.keys((entries(obj).find((e) => e.manager === 'ancient-changes')!.fieldsV1 as any)['f:metadata']['f:labels']).sort(),
    ['.', 'f:m0', 'f:m1', 'f:m2'],
  );
});

test('apply creates, defaults what the configuration leaves out, and owns only its configuration', () => {
  const obj = manager().apply(null, widget({ args: ['a'] }), 'applier', false);
  assert.equal((obj.spec as { replicas: number }).replicas, 1);
  assert.deepEqual(summary(obj), ['applier/Apply {"f:spec":{"f:args":{}}}']);
});

test('an applied null removes the field (then defaulted) and the applier keeps owning it', () => {
  const live = manager().apply(null, widget({ replicas: 3, args: ['a'] }), 'applier', false);
  const cleared = manager().apply(live, widget({ replicas: null, args: ['a'] }), 'applier', false);
  assert.equal((cleared.spec as { replicas: number }).replicas, 1);
  assert.deepEqual(summary(cleared), ['applier/Apply {"f:spec":{"f:args":{},"f:replicas":{}}}']);
});

test('an apply that prunes all the metadata answers an object with empty metadata, not none', () => {
  const live = manager().apply(null, widget({ replicas: 2 }, { labels: { app: 'x' } }), 'applier', false);
  // The applier last applied labels and nobody else owns metadata: pruning them takes the name too.
  const config = { apiVersion: 'test.orch.io/v1', kind: 'Widget', spec: { replicas: 2 } } as unknown as ApiObject;
  const pruned = manager().apply(live, config, 'applier', false);
  assert.deepEqual(Object.keys(pruned.metadata), ['managedFields']);
  assert.deepEqual(summary(pruned), ['applier/Apply {"f:spec":{"f:replicas":{}}}']);
});

test('apply checks its configuration: apiVersion and kind, no managedFields, the schema, keyable lists', () => {
  const bad = (config: ApiObject, status: number, message: string) =>
    assert.throws(
      () => manager().apply(null, config, 'a', false),
      (err: unknown) => isApiError(err) && err.code === status && err.status.message === message,
    );
  bad({ ...widget({}), apiVersion: 'v2' }, 400, 'invalid object type: /v2, Kind=Widget');
  bad({ ...widget({}), kind: undefined }, 400, 'invalid object type: test.orch.io/v1, Kind=');
  bad(widget({}, { managedFields: [] }), 400, 'metadata.managedFields must be nil');
  bad(
    widget({ replicas: 'two', bogus: 1 }),
    400,
    'failed to create typed patch object (ns/w; test.orch.io/v1, Kind=Widget): errors:\n  .spec.replicas: expected integer, got string\n  .spec.bogus: field not declared in schema',
  );
  bad(
    widget({ containers: [{ image: 'x' }] }),
    400,
    'failed to create typed patch object (ns/w; test.orch.io/v1, Kind=Widget): .spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
  );
});

test('apply conflicts are a 409 naming the fields; force takes them', () => {
  const live = manager().update(null, widget({ replicas: 2 }), 'creator');
  assert.throws(
    () => manager().apply(live, widget({ replicas: 3 }), 'applier', false),
    (err: unknown) =>
      isApiError(err, 'Conflict') &&
      err.status.message === 'Apply failed with 1 conflict: conflict with "creator" using test.orch.io/v1: .spec.replicas',
  );
  const forced = manager().apply(live, widget({ replicas: 3 }), 'applier', true);
  assert.deepEqual(summary(forced), ['applier/Apply {"f:spec":{"f:replicas":{}}}']);
});

test('the first apply to an object without managedFields conflicts with what is there (before-first-apply)', () => {
  const live = widget({ replicas: 2 });
  assert.throws(() => manager().apply(live, widget({ replicas: 3 }), 'applier', false), {
    message: 'Apply failed with 1 conflict: conflict with "before-first-apply" using test.orch.io/v1: .spec.replicas',
  });
});

test('kubectl upgrading from client-side apply takes the fields its last-applied annotation set', () => {
  const lastApplied = JSON.stringify(widget({ replicas: 2 }));
  const live = manager().update(
    null,
    widget({ replicas: 2 }, { annotations: { [LAST_APPLIED_ANNOTATION]: lastApplied } }),
    'kubectl-client-side-apply',
  );
  assert.throws(() => manager().apply(live, widget({ replicas: 3 }), 'someone-else', false), /conflict/);
  const upgraded = manager().apply(live, widget({ replicas: 3 }), 'kubectl', false);
  assert.equal((upgraded.spec as { replicas: number }).replicas, 3);
  assert.equal(
    upgraded.metadata.annotations![LAST_APPLIED_ANNOTATION],
    '{"apiVersion":"test.orch.io/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"},"spec":{"replicas":3}}',
  );
  assert.deepEqual(
    summary(upgraded).map((s) => s.split(' ')[0]),
    ['kubectl/Apply', 'kubectl-client-side-apply/Update'],
  );
});
