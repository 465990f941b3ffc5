import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import { newResourceTable } from '../../../../apiserver/api/resource-table.js';
import { allResources } from '../../../../apiserver/registry/resources/index.js';
import { servedObject, storageResource, storedObject } from '../../../../apiserver/registry/generic/conversion.js';
import { newKeyScheme } from '../../../../apiserver/registry/generic/keys.js';
import { coreToEventsV1, eventsV1ToCore } from '../../../../apiserver/registry/events/conversion.js';
import { eventsV1SelectableFields } from '../../../../apiserver/registry/events/strategy.js';

const domain = newApiDomain();
const table = newResourceTable(domain, allResources);
const eventsV1 = table.lookup('events.orch.io', 'v1', 'events')!;
const coreEvents = table.lookup('', 'v1', 'events')!;
const configMaps = table.lookup('', 'v1', 'configmaps')!;

const reference = { apiVersion: 'v1', kind: 'Pod', name: 'p', namespace: 'ns', uid: 'u1', fieldPath: 'spec.containers{c}' };

/** Every events.k8s.io/v1 field, and the core v1 object it is the same event as. */
const served = {
  apiVersion: 'events.orch.io/v1',
  kind: 'Event',
  metadata: { name: 'e', namespace: 'ns' },
  eventTime: '2024-01-02T03:04:05.123456Z',
  series: { count: 3, lastObservedTime: '2024-01-02T03:05:00.000001Z' },
  reportingController: 'orch.io/kubelet',
  reportingInstance: 'node-1',
  action: 'Pulling',
  reason: 'Pulled',
  regarding: reference,
  related: { kind: 'Node', name: 'node-1' },
  note: 'pulled the image',
  type: 'Normal',
  deprecatedSource: { component: 'kubelet', host: 'node-1' },
  deprecatedFirstTimestamp: '2024-01-02T03:00:00Z',
  deprecatedLastTimestamp: '2024-01-02T03:04:00Z',
  deprecatedCount: 3,
};
const core = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'e', namespace: 'ns' },
  eventTime: served.eventTime,
  series: served.series,
  reportingComponent: 'orch.io/kubelet',
  reportingInstance: 'node-1',
  action: 'Pulling',
  reason: 'Pulled',
  involvedObject: reference,
  related: served.related,
  message: 'pulled the image',
  type: 'Normal',
  source: served.deprecatedSource,
  firstTimestamp: served.deprecatedFirstTimestamp,
  lastTimestamp: served.deprecatedLastTimestamp,
  count: 3,
};

describe('events.k8s.io/v1 ↔ core v1 Event conversion', () => {
  it('renames each field both ways and keeps the shared ones', () => {
    const { apiVersion: _a, kind: _k, ...servedFields } = served;
    const { apiVersion: _b, kind: _l, ...coreFields } = core;
    assert.deepEqual(eventsV1ToCore(servedFields), coreFields);
    assert.deepEqual(coreToEventsV1(coreFields), servedFields);
  });

  it('leaves absent fields absent', () => {
    assert.deepEqual(eventsV1ToCore({ metadata: { name: 'x' }, note: 'n' }), { metadata: { name: 'x' }, message: 'n' });
    assert.deepEqual(coreToEventsV1({ metadata: { name: 'x' }, involvedObject: { kind: 'Pod' } }), {
      metadata: { name: 'x' },
      regarding: { kind: 'Pod' },
    });
  });
});

describe('storage conversion in the store', () => {
  it('keeps events.k8s.io Events under the core events keys', () => {
    assert.deepEqual(storageResource(eventsV1, domain), { group: '', resource: 'events' });
    assert.deepEqual(storageResource(configMaps, domain), { group: '', resource: 'configmaps' });
    assert.equal(newKeyScheme('/registry', eventsV1, domain).objectKey('ns', 'e'), '/registry/events/ns/e');
    assert.equal(newKeyScheme('/registry', eventsV1, domain).listPrefix(''), newKeyScheme('/registry', coreEvents, domain).listPrefix(''));
    const grouped = { ...configMaps, group: 'storage.orch.io', plural: 'storageclasses', namespaced: false };
    assert.equal(newKeyScheme('/registry', grouped, domain).objectKey('', 'fast'), '/registry/storage.orch.io/storageclasses/fast');
  });

  it('writes the core form and reads back the served one', () => {
    assert.deepEqual(storedObject(eventsV1, domain, served), core);
    assert.deepEqual(servedObject(eventsV1, core), served);
    assert.deepEqual(servedObject(coreEvents, core), core);
  });

  it('passes kinds without a conversion through, with their own kind and apiVersion', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } };
    assert.equal(storedObject(configMaps, domain, cm), cm);
    assert.deepEqual(servedObject(configMaps, { ...cm, apiVersion: 'x', kind: 'y' }), cm);
  });

  it('stamps the storage group of the configured domain', () => {
    const kube = newApiDomain('k8s.io');
    const def = newResourceTable(kube, allResources).lookup('events.k8s.io', 'v1', 'events')!;
    assert.equal(storedObject(def, kube, served).apiVersion, 'v1');
    assert.equal(servedObject(def, core).apiVersion, 'events.k8s.io/v1');
  });
});

describe('events.k8s.io/v1 field selectors', () => {
  it('reads each served label as the core label it converts to', () => {
    const fields = Object.fromEntries(Object.entries(eventsV1SelectableFields).map(([k, f]) => [k, f(served)]));
    assert.deepEqual(fields, {
      'regarding.kind': 'Pod',
      'regarding.namespace': 'ns',
      'regarding.name': 'p',
      'regarding.uid': 'u1',
      'regarding.apiVersion': 'v1',
      'regarding.resourceVersion': undefined,
      'regarding.fieldPath': 'spec.containers{c}',
      reason: 'Pulled',
      reportingController: 'orch.io/kubelet',
      type: 'Normal',
      'metadata.namespace': served.metadata.namespace,
      'metadata.name': served.metadata.name,
    });
  });
});
