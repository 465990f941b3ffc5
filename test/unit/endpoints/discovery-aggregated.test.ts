/**
 * Aggregated discovery without a server: the legacy-to-aggregated conversion (Kubernetes'
 * ConvertGroupVersionIntoToDiscovery cases), the document's order and metadata, the Accept
 * negotiation, and the OpenAPI v2 merge of extension documents.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  aggregatedDiscoveryGroup,
  groupDiscoveryList,
  localVersionDiscovery,
  newAggregatedDiscovery,
  toResourceDiscovery,
  type VersionDiscovery,
} from '../../../apiserver/endpoints/discovery-aggregated.js';
import { mergeOpenApiV2, newMergedOpenApiV2 } from '../../../apiserver/endpoints/openapi-v2-merge.js';
import { newOpenApiV2 } from '../../../apiserver/endpoints/openapi-v2.js';
import { newApiDomain } from '../../../apiserver/api/domain.js';
import { newResourceTable } from '../../../apiserver/api/resource-table.js';
import { coreResources } from '../../../apiserver/registry/resources/core.js';
import { definitions } from '../../../apiserver/api/generated/definitions.js';

const GROUPS = ['apidiscovery.orch.io', 'apidiscovery.k8s.io'];

describe('toResourceDiscovery', () => {
  it('puts subresources under their resource with their own kinds', () => {
    const out = toResourceDiscovery([
      {
        name: 'widgets',
        singularName: 'widget',
        namespaced: true,
        kind: 'Widget',
        verbs: ['get', 'list'],
        shortNames: ['wd'],
        categories: ['all'],
      },
      {
        name: 'widgets/scale',
        singularName: '',
        namespaced: true,
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'update'],
      },
      { name: 'widgets/status', singularName: '', namespaced: true, kind: 'Widget', verbs: ['get'] },
    ]);
    assert.deepEqual(out, [
      {
        resource: 'widgets',
        responseKind: { group: '', version: '', kind: 'Widget' },
        scope: 'Namespaced',
        singularResource: 'widget',
        verbs: ['get', 'list'],
        shortNames: ['wd'],
        categories: ['all'],
        subresources: [
          { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'update'] },
          { subresource: 'status', responseKind: { group: '', version: '', kind: 'Widget' }, verbs: ['get'] },
        ],
      },
    ]);
  });

  it('gives a subresource without its resource an empty parent', () => {
    const out = toResourceDiscovery([{ name: 'things/proxy', singularName: '', namespaced: false, kind: '', verbs: ['get'] }]);
    assert.deepEqual(out, [
      {
        resource: 'things',
        responseKind: { group: '', version: '', kind: '' },
        scope: 'Cluster',
        singularResource: '',
        verbs: [],
        subresources: [{ subresource: 'proxy', responseKind: { group: '', version: '', kind: '' }, verbs: ['get'] }],
      },
    ]);
  });

  it('refuses a subresource whose scope is not its parent scope', () => {
    assert.throws(
      () =>
        toResourceDiscovery([
          { name: 'a', singularName: 'a', namespaced: true, kind: 'A', verbs: [] },
          { name: 'a/b', singularName: '', namespaced: false, kind: 'A', verbs: [] },
        ]),
      /scopes differ/,
    );
  });
});

describe('groupDiscoveryList', () => {
  const table = newResourceTable(newApiDomain(), coreResources);

  it('keeps the order given, names the core group by no name, and leaves out versions with nothing', () => {
    const doc = groupDiscoveryList(
      [
        { group: '', versions: ['v1'], preferredVersion: 'v1' },
        { group: 'gone.example.com', versions: ['v1'], preferredVersion: 'v1' },
      ],
      (g, v) => localVersionDiscovery(table, g, v),
      'apidiscovery.k8s.io/v2beta1',
    );
    assert.equal(doc.kind, 'APIGroupDiscoveryList');
    assert.deepEqual(doc.metadata, {});
    assert.equal(doc.items.length, 1);
    assert.deepEqual(doc.items[0].metadata, { creationTimestamp: null });
    assert.equal(doc.items[0].versions[0].freshness, 'Current');
    assert.ok(doc.items[0].versions[0].resources?.some((r) => r.resource === 'configmaps'));
  });
});

describe('newAggregatedDiscovery', () => {
  it('serves the same text until a version entry is another object, and the ETag follows the content', () => {
    const table = newResourceTable(newApiDomain(), coreResources);
    let remote: VersionDiscovery = { version: 'v1', freshness: 'Stale' };
    const d = newAggregatedDiscovery(table, (g) => (g === 'metrics.k8s.io' ? remote : undefined));
    const groups = [
      { group: '', versions: ['v1'], preferredVersion: 'v1' },
      { group: 'metrics.k8s.io', versions: ['v1'], preferredVersion: 'v1' },
    ];
    const first = d.document('/apis', groups, 'apidiscovery.k8s.io/v2beta1');
    assert.equal(d.document('/apis', groups, 'apidiscovery.k8s.io/v2beta1'), first);
    assert.notEqual(d.document('/apis', groups, 'apidiscovery.orch.io/v2beta1').etag, first.etag);
    remote = { version: 'v1', freshness: 'Stale' };
    const same = d.document('/apis', groups, 'apidiscovery.k8s.io/v2beta1');
    assert.notEqual(same, first);
    assert.equal(same.etag, first.etag);
    remote = { version: 'v1', freshness: 'Current', resources: [] };
    assert.notEqual(d.document('/apis', groups, 'apidiscovery.k8s.io/v2beta1').etag, first.etag);
    assert.equal(JSON.parse(first.body).items[1].versions[0].freshness, 'Stale');
  });
});

describe('aggregatedDiscoveryGroup', () => {
  const asked = (accept: string | undefined) => aggregatedDiscoveryGroup(accept, GROUPS);

  it('answers the aggregated document only when the first range we serve asks for it', () => {
    assert.equal(asked('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList'), 'apidiscovery.k8s.io');
    assert.equal(asked('application/json;g=apidiscovery.orch.io;v=v2beta1;as=APIGroupDiscoveryList'), 'apidiscovery.orch.io');
    assert.equal(
      asked(
        'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json',
      ),
      'apidiscovery.k8s.io',
    );
    assert.equal(asked('application/json,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList'), undefined);
    assert.equal(asked(undefined), undefined);
    assert.equal(asked('*/*'), undefined);
    assert.equal(asked('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'), undefined);
    assert.equal(asked('application/json;g=meta.k8s.io;v=v1;as=Table'), undefined);
    // q-values order the ranges.
    assert.equal(
      asked('application/json;q=0.5,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList'),
      'apidiscovery.k8s.io',
    );
    // No protobuf form: a protobuf range asking for it is skipped.
    assert.equal(
      asked(
        'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
      ),
      'apidiscovery.k8s.io',
    );
  });
});

describe('mergeOpenApiV2', () => {
  const local = {
    swagger: '2.0',
    info: { title: 'orch', version: 'v' },
    paths: { '/a': { get: {} } },
    definitions: { A: { type: 'object' } },
  };

  it("adds an extension document's new paths and definitions; the served ones win a conflict", () => {
    const remote = {
      swagger: '2.0',
      paths: { '/a': { get: { description: 'theirs' } }, '/b': { get: { description: 'b' } } },
      definitions: { A: { type: 'string' }, B: { type: 'object', description: 'b' } },
    };
    const merged = mergeOpenApiV2(local, [remote]);
    assert.deepEqual(merged.paths, { '/a': { get: {} }, '/b': { get: { description: 'b' } } });
    assert.deepEqual(merged.definitions, { A: { type: 'object' }, B: { type: 'object', description: 'b' } });
    assert.deepEqual(merged.info, local.info);
  });

  it('leaves out a document that is no swagger 2.0 or that cannot be encoded, whole', () => {
    const rejected: string[] = [];
    const bad = { swagger: '2.0', paths: { '/c': { get: {} } }, definitions: { C: { type: 'object', notAField: 1 } } };
    const merged = mergeOpenApiV2(local, [{ openapi: '3.0.0' }, bad, 'garbage'], (i, reason) => rejected.push(`${i}: ${reason}`));
    assert.deepEqual(Object.keys(merged.paths as object), ['/a']);
    assert.deepEqual(Object.keys(merged.definitions as object), ['A']);
    assert.equal(rejected.length, 3);
    assert.match(rejected[1], /^1: /);
  });

  it('builds the merged document again when the served one or the generation changes', () => {
    const table = newResourceTable(newApiDomain(), coreResources);
    const served = newOpenApiV2(table, definitions);
    let remotes: unknown[] = [];
    let generation = 0;
    const merged = newMergedOpenApiV2(
      served,
      () => remotes,
      () => generation,
    );
    assert.equal(merged.json(), served.json());
    assert.equal(merged.etag('json'), served.etag('json'));
    remotes = [{ swagger: '2.0', paths: {}, definitions: { 'io.example.v1.Thing': { type: 'object', description: 'thing' } } }];
    generation++;
    assert.ok(JSON.parse(merged.json()).definitions['io.example.v1.Thing']);
    assert.notEqual(merged.etag('json'), served.etag('json'));
    assert.ok(merged.protobuf().includes(Buffer.from('io.example.v1.Thing')));
  });
});
