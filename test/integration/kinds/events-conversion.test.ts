/**
 * events.k8s.io/v1 (served as events.orch.io/v1) and core v1 Events are the same stored objects: an
 * event written through either API is read, listed, watched, patched and deleted through the other,
 * converted field by field; events.orch.io applies Kubernetes' strict validation for its version.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';
import type { TestClient } from '../../support/http-client.js';
import { TABLE } from '../../support/api-assertions.js';

const CORE = (name = '') => `/api/v1/namespaces/ev/events${name ? `/${name}` : ''}`;
const V1 = (name = '') => `/apis/events.orch.io/v1/namespaces/ev/events${name ? `/${name}` : ''}`;
const MERGE = 'application/merge-patch+json';

const pod = { apiVersion: 'v1', kind: 'Pod', name: 'web-1', namespace: 'ev', uid: 'pod-uid', fieldPath: 'spec.containers{app}' };
const node = { apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: 'node-uid' };

/** The event-specific fields of an object (no TypeMeta or metadata). */
function fields(obj: Record<string, unknown>): Record<string, unknown> {
  const { apiVersion: _a, kind: _k, metadata: _m, ...rest } = obj;
  return rest;
}

/** A core v1 Event using every field. */
const coreEvent = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: pod,
  reason: 'BackOff',
  message: 'Back-off restarting failed container',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2024-03-01T10:00:00Z',
  lastTimestamp: '2024-03-01T10:05:00Z',
  count: 7,
  type: 'Warning',
  eventTime: '2024-03-01T10:00:00.250000Z',
  series: { count: 7, lastObservedTime: '2024-03-01T10:05:00.500000Z' },
  action: 'Restarting',
  related: node,
  reportingComponent: 'orch.io/kubelet',
  reportingInstance: 'kubelet-node-1',
});

/** The same event as events.k8s.io/v1 names its fields. */
const asEventsV1 = {
  regarding: pod,
  reason: 'BackOff',
  note: 'Back-off restarting failed container',
  deprecatedSource: { component: 'kubelet', host: 'node-1' },
  deprecatedFirstTimestamp: '2024-03-01T10:00:00Z',
  deprecatedLastTimestamp: '2024-03-01T10:05:00Z',
  deprecatedCount: 7,
  type: 'Warning',
  eventTime: '2024-03-01T10:00:00.250000Z',
  series: { count: 7, lastObservedTime: '2024-03-01T10:05:00.500000Z' },
  action: 'Restarting',
  related: node,
  reportingController: 'orch.io/kubelet',
  reportingInstance: 'kubelet-node-1',
};

/** A new-style events.k8s.io/v1 Event. */
const v1Event = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'events.orch.io/v1',
  kind: 'Event',
  metadata: { name },
  eventTime: '2024-03-02T08:00:00.000001Z',
  reportingController: 'orch.io/scheduler',
  reportingInstance: 'scheduler-0',
  action: 'Binding',
  reason: 'Scheduled',
  regarding: pod,
  related: node,
  note: 'Successfully assigned ev/web-1 to node-1',
  type: 'Normal',
  ...extra,
});

describe('events.orch.io/v1 ↔ core v1 Event', () => {
  let s: TestServer;
  let c: TestClient;
  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createNamespace(c, 'ev');
  });
  after(() => s?.stop());

  it('is discovered as events.orch.io/v1 events (short name ev)', async () => {
    const r = await c.get('/apis/events.orch.io/v1');
    assert.equal(r.status, 200);
    const events = r.body.resources.find((x: any) => x.name === 'events');
    assert.deepEqual(
      { kind: events.kind, namespaced: events.namespaced, shortNames: events.shortNames },
      { kind: 'Event', namespaced: true, shortNames: ['ev'] },
    );
  });

  it('reads an event created through core v1 with every field converted', async () => {
    const created = await c.post(CORE(), coreEvent('from-core'));
    assert.equal(created.status, 201, created.text);
    const r = await c.get(V1('from-core'));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.apiVersion, 'events.orch.io/v1');
    assert.equal(r.body.kind, 'Event');
    assert.deepEqual(r.body.metadata, created.body.metadata);
    assert.deepEqual(fields(r.body), asEventsV1);
  });

  it('reads an event created through events.orch.io/v1 as core v1', async () => {
    const created = await c.post(V1(), v1Event('from-v1'));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.apiVersion, 'events.orch.io/v1');
    assert.equal(created.body.note, 'Successfully assigned ev/web-1 to node-1');
    const r = await c.get(CORE('from-v1'));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.apiVersion, 'v1');
    assert.deepEqual(r.body.metadata, created.body.metadata);
    assert.deepEqual(fields(r.body), {
      eventTime: '2024-03-02T08:00:00.000001Z',
      reportingComponent: 'orch.io/scheduler',
      reportingInstance: 'scheduler-0',
      action: 'Binding',
      reason: 'Scheduled',
      involvedObject: pod,
      related: node,
      message: 'Successfully assigned ev/web-1 to node-1',
      type: 'Normal',
    });
  });

  it('lists the events of both APIs through each, with field selectors in each API’s names', async () => {
    const v1 = await c.get(V1());
    assert.equal(v1.body.kind, 'EventList');
    assert.equal(v1.body.apiVersion, 'events.orch.io/v1');
    const byName = Object.fromEntries(v1.body.items.map((i: any) => [i.metadata.name, i]));
    assert.deepEqual(fields(byName['from-core']), asEventsV1);
    assert.equal(byName['from-v1'].note, 'Successfully assigned ev/web-1 to node-1');
    const core = await c.get(CORE());
    assert.deepEqual(core.body.items.map((i: any) => i.metadata.name).sort(), ['from-core', 'from-v1']);
    assert.ok(core.body.items.every((i: any) => i.apiVersion === undefined || i.apiVersion === 'v1'));
    const selected = await c.get(`${V1()}?fieldSelector=reportingController%3Dorch.io%2Fscheduler,regarding.name%3Dweb-1`);
    assert.deepEqual(
      selected.body.items.map((i: any) => i.metadata.name),
      ['from-v1'],
    );
    const coreSelected = await c.get(`${CORE()}?fieldSelector=reportingComponent%3Dorch.io%2Fkubelet`);
    assert.deepEqual(
      coreSelected.body.items.map((i: any) => i.metadata.name),
      ['from-core'],
    );
    const unknown = await c.get(`${V1()}?fieldSelector=source%3Dkubelet`);
    assert.equal(unknown.status, 400, unknown.text);
  });

  it('watches through events.orch.io what is written through core v1, and the reverse', async () => {
    const rv = (await c.get(V1())).body.metadata.resourceVersion;
    const v1Watch = await c.watch(`${V1()}?watch=1&resourceVersion=${rv}`);
    const coreWatch = await c.watch(`${CORE()}?watch=1&resourceVersion=${rv}`);
    try {
      assert.equal((await c.post(CORE(), coreEvent('watched-core'))).status, 201);
      assert.equal((await c.post(V1(), v1Event('watched-v1'))).status, 201);
      const seenV1 = [await v1Watch.next(), await v1Watch.next()];
      const seenCore = [await coreWatch.next(), await coreWatch.next()];
      assert.deepEqual(
        seenV1.map((e) => [e.type, e.object.apiVersion, e.object.metadata.name]),
        [
          ['ADDED', 'events.orch.io/v1', 'watched-core'],
          ['ADDED', 'events.orch.io/v1', 'watched-v1'],
        ],
      );
      assert.deepEqual(fields(seenV1[0].object), asEventsV1);
      assert.deepEqual(
        seenCore.map((e) => [e.type, e.object.apiVersion, e.object.metadata.name]),
        [
          ['ADDED', 'v1', 'watched-core'],
          ['ADDED', 'v1', 'watched-v1'],
        ],
      );
      assert.equal(seenCore[1].object.message, 'Successfully assigned ev/web-1 to node-1');
      assert.equal(seenCore[1].object.reportingComponent, 'orch.io/scheduler');
      assert.equal(seenCore[1].object.involvedObject.name, 'web-1');
      const del = await c.delete(V1('watched-core'));
      assert.equal(del.status, 200, del.text);
      const deleted = await coreWatch.next();
      assert.deepEqual([deleted.type, deleted.object.apiVersion, deleted.object.count], ['DELETED', 'v1', 7]);
      const deletedV1 = await v1Watch.next();
      assert.deepEqual([deletedV1.type, deletedV1.object.deprecatedCount], ['DELETED', 7]);
      assert.equal((await c.get(CORE('watched-core'))).status, 404);
    } finally {
      v1Watch.close();
      coreWatch.close();
    }
  });

  it('patches through one API what the other created, one resourceVersion for both', async () => {
    const labelled = await c.patch(V1('from-core'), { metadata: { labels: { tier: 'web' } } }, MERGE);
    assert.equal(labelled.status, 200, labelled.text);
    assert.equal(labelled.body.deprecatedCount, 7, 'an update through events.orch.io keeps the deprecated fields already stored');
    const core = await c.get(CORE('from-core'));
    assert.deepEqual(core.body.metadata.labels, { tier: 'web' });
    assert.equal(core.body.metadata.resourceVersion, labelled.body.metadata.resourceVersion);
    const counted = await c.patch(CORE('from-core'), { count: 8, lastTimestamp: '2024-03-01T10:06:00Z' }, MERGE);
    assert.equal(counted.status, 200, counted.text);
    const v1 = await c.get(V1('from-core'));
    assert.equal(v1.body.deprecatedCount, 8);
    assert.equal(v1.body.deprecatedLastTimestamp, '2024-03-01T10:06:00Z');
    const series = await c.patch(V1('from-v1'), { series: { count: 2, lastObservedTime: '2024-03-02T08:01:00.000000Z' } }, MERGE);
    assert.equal(series.status, 200, series.text);
    assert.deepEqual((await c.get(CORE('from-v1'))).body.series, { count: 2, lastObservedTime: '2024-03-02T08:01:00.000000Z' });
  });

  it('creates through PUT, like core v1', async () => {
    const r = await c.put(V1('put-created'), v1Event('put-created'));
    assert.equal(r.status, 201, r.text);
    assert.equal((await c.get(CORE('put-created'))).body.reason, 'Scheduled');
  });

  it('refuses through events.orch.io what its version does not allow (422 with causes)', async () => {
    const r = await c.post(V1(), {
      metadata: { name: 'strict' },
      type: 'Info',
      deprecatedCount: 3,
      deprecatedSource: { component: 'kubelet' },
      series: { count: 1, lastObservedTime: '2024-03-02T08:00:00.000000Z' },
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.reason, 'Invalid');
    assert.equal(r.body.details.group, 'events.orch.io');
    assert.equal(r.body.details.kind, 'Event');
    assert.deepEqual(r.body.details.causes, [
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": does not match event.namespace', field: 'involvedObject.namespace' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": should be at least 2', field: 'series.count' },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'eventTime' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": has invalid value: Info', field: 'type' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": needs to be unset', field: 'count' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": needs to be unset', field: 'source' },
    ]);
    assert.match(r.body.message, /^Event\.events\.orch\.io "strict" is invalid: \[/);
    const timed = await c.post(
      V1(),
      v1Event('timed', { reportingController: 'bad controller', reportingInstance: '', action: '', reason: 'x'.repeat(129) }),
    );
    assert.equal(timed.status, 422, timed.text);
    assert.deepEqual(
      timed.body.details.causes.map((x: any) => [x.field, x.reason]),
      [
        ['reportingController', 'FieldValueInvalid'],
        ['reportingInstance', 'FieldValueRequired'],
        ['action', 'FieldValueRequired'],
        ['reason', 'FieldValueInvalid'],
      ],
    );
    assert.match(
      timed.body.details.causes[0].message,
      /^Invalid value: "bad controller": name part must consist of alphanumeric characters/,
    );
    assert.equal(timed.body.details.causes[3].message, 'Invalid value: "": can have at most 128 characters');
  });

  it('keeps an event immutable through events.orch.io', async () => {
    const cur = (await c.get(V1('from-v1'))).body;
    const r = await c.put(V1('from-v1'), { ...cur, note: 'rewritten', action: 'Other' });
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(r.body.details.causes, [
      { reason: 'FieldValueInvalid', message: 'Invalid value: "rewritten": field is immutable', field: 'message' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "Other": field is immutable', field: 'action' },
    ]);
    const bad = await c.patch(V1('from-v1'), { series: { count: 1, lastObservedTime: '2024-03-02T08:02:00.000000Z' } }, MERGE);
    assert.equal(bad.status, 422, bad.text);
    assert.deepEqual(bad.body.details.causes, [
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": should be at least 2', field: 'series.count' },
    ]);
  });

  it('prints the event table through events.orch.io like core v1', async () => {
    const get = (path: string) => c.request('GET', path, { headers: { Accept: TABLE } });
    const [v1, core] = await Promise.all([get(V1('from-v1')), get(CORE('from-v1'))]);
    assert.equal(v1.status, 200, v1.text);
    assert.deepEqual(
      v1.body.columnDefinitions.map((d: any) => d.name),
      core.body.columnDefinitions.map((d: any) => d.name),
    );
    // Every cell but the two ages (taken at each request's own time) is the same.
    const cells = (t: any) => [...t.body.rows[0].cells.slice(1, 7), ...t.body.rows[0].cells.slice(8)];
    assert.deepEqual(cells(v1), cells(core));
    assert.deepEqual(cells(v1), [
      'Normal',
      'Scheduled',
      'pod/web-1',
      'spec.containers{app}',
      'orch.io/scheduler, scheduler-0',
      'Successfully assigned ev/web-1 to node-1',
      2,
      'from-v1',
    ]);
  });
});
