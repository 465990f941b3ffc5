/**
 * Aggregated discovery (apidiscovery v2beta1, Kubernetes 1.28's default) against a real server and a
 * real extension server: the document's shape for built-in kinds, a CRD and a remote APIService, the
 * content negotiation (legacy documents for any other Accept), ETag and 304, and the extension
 * server's version taken from its aggregated /apis, from its legacy document, or marked Stale.
 * Also /openapi/v2 merged with the extension server's document.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { eventually } from '../../support/eventually.js';
import { type ExtensionServer, registration, startExtensionServer } from '../../support/extension-server.js';
import { CRDS, createServedCrd, cronTabCrd } from '../../support/crd-fixtures.js';

const AR = '/apis/apiregistration.orch.io/v1/apiservices';
const ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
/** What kubectl 1.32 sends: v2 first (not served by 1.28), then v2beta1, then the legacy document. */
const KUBECTL_ACCEPT = `application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,${ACCEPT},application/json`;

interface Resource {
  resource: string;
  responseKind: { group: string; version: string; kind: string };
  scope: string;
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: { subresource: string; responseKind: { group: string; version: string; kind: string }; verbs: string[] }[];
}
interface Version {
  version: string;
  resources?: Resource[];
  freshness: string;
}
interface Group {
  metadata: { name?: string };
  versions: Version[];
}

describe('aggregated discovery', () => {
  let s: TestServer;
  let ext: ExtensionServer;

  const discovery = async (path = '/apis', accept = ACCEPT) => {
    const r = await s.client.request('GET', path, { headers: { Accept: accept } });
    assert.equal(r.status, 200, r.text);
    return r;
  };
  const version = (items: Group[], group: string, v: string) =>
    items.find((g) => g.metadata.name === group)?.versions.find((x) => x.version === v);
  const poke = async (n: number) => {
    const r = await s.client.patch(
      `${AR}/v1beta1.metrics.k8s.io`,
      { metadata: { labels: { poke: String(n) } } },
      'application/merge-patch+json',
    );
    assert.equal(r.status, 200, r.text);
  };

  before(async () => {
    s = await startTestServer();
    const frontProxyCA = readFileSync(join(s.dataDir, 'certs', 'front-proxy-ca.crt'), 'utf8');
    ext = await startExtensionServer({ frontProxyCA, serviceName: 'metrics-server', namespace: 'default' });
    const reg = registration('default', 'metrics-server', ext.port, ext.ca);
    assert.equal((await s.client.post('/api/v1/namespaces/default/services', reg.service)).status, 201);
    assert.equal((await s.client.post(AR, reg.apiService('apiregistration.orch.io/v1'))).status, 201);
    await eventually('metrics discovered', async () => {
      const r = await discovery();
      return version(r.body.items, 'metrics.k8s.io', 'v1beta1')?.freshness === 'Current';
    });
  });
  after(async () => {
    await s?.stop();
    await ext?.close();
  });

  it('answers /apis as an APIGroupDiscoveryList in the group asked for, ordered as /apis', async () => {
    const r = await discovery();
    assert.equal(r.headers['content-type'], ACCEPT);
    assert.equal(r.headers.vary, 'Accept');
    assert.equal(r.headers['cache-control'], 'public');
    assert.match(String(r.headers.etag), /^"[0-9A-F]{128}"$/);
    assert.equal(r.body.kind, 'APIGroupDiscoveryList');
    assert.equal(r.body.apiVersion, 'apidiscovery.k8s.io/v2beta1');
    const legacy = await s.client.get('/apis');
    assert.deepEqual(
      r.body.items.map((g: Group) => g.metadata.name),
      legacy.body.groups.map((g: { name: string }) => g.name),
    );
    assert.deepEqual(
      r.body.items.map((g: Group) => g.versions.map((v) => v.version)),
      legacy.body.groups.map((g: { versions: { version: string }[] }) => g.versions.map((v) => v.version)),
    );
    // The domain's own name of the group is served too.
    const own = await discovery('/apis', 'application/json;g=apidiscovery.orch.io;v=v2beta1;as=APIGroupDiscoveryList');
    assert.equal(own.body.apiVersion, 'apidiscovery.orch.io/v2beta1');
    assert.equal(own.headers['content-type'], 'application/json;g=apidiscovery.orch.io;v=v2beta1;as=APIGroupDiscoveryList');
  });

  it("describes built-in resources as kube-apiserver's installer does", async () => {
    const r = await discovery();
    const apps = version(r.body.items, 'apps', 'v1')!;
    assert.equal(apps.freshness, 'Current');
    const deployments = apps.resources!.find((x) => x.resource === 'deployments')!;
    assert.deepEqual(
      { ...deployments, subresources: undefined },
      {
        resource: 'deployments',
        responseKind: { group: '', version: '', kind: 'Deployment' },
        scope: 'Namespaced',
        singularResource: 'deployment',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['deploy'],
        categories: ['all'],
        subresources: undefined,
      },
    );
    const scale = deployments.subresources!.find((x) => x.subresource === 'scale')!;
    assert.deepEqual(scale, {
      subresource: 'scale',
      responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      verbs: ['get', 'patch', 'update'],
    });
    const statusSub = deployments.subresources!.find((x) => x.subresource === 'status')!;
    assert.deepEqual(statusSub.responseKind, { group: '', version: '', kind: 'Deployment' });
    const namespaces = (await discovery('/api')).body.items[0].versions[0].resources.find((x: Resource) => x.resource === 'namespaces');
    assert.equal(namespaces.scope, 'Cluster');
  });

  it('answers /api with the core group alone', async () => {
    const r = await discovery('/api');
    assert.equal(r.body.items.length, 1);
    assert.deepEqual(r.body.items[0].metadata, { creationTimestamp: null });
    const v1 = r.body.items[0].versions[0] as Version;
    assert.equal(v1.version, 'v1');
    const pods = v1.resources!.find((x) => x.resource === 'pods')!;
    assert.deepEqual(pods.shortNames, ['po']);
    const subs = Object.fromEntries(pods.subresources!.map((x) => [x.subresource, x]));
    assert.deepEqual(subs.eviction.responseKind, { group: 'policy', version: 'v1', kind: 'Eviction' });
    assert.deepEqual(subs.binding.verbs, ['create']);
    assert.ok(subs.log && subs.exec && subs.status, Object.keys(subs).join(','));
  });

  it('negotiates: the legacy documents for any other Accept, v2beta1 when asked after an unserved v2', async () => {
    const plain = await s.client.request('GET', '/apis', { headers: { Accept: 'application/json' } });
    assert.equal(plain.body.kind, 'APIGroupList');
    assert.equal(plain.headers.vary, 'Accept');
    assert.equal((await s.client.request('GET', '/api', { headers: { Accept: '*/*' } })).body.kind, 'APIVersions');
    const v2Only = await s.client.request('GET', '/apis', {
      headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' },
    });
    assert.equal(v2Only.body.kind, 'APIGroupList');
    const kubectl = await discovery('/apis', KUBECTL_ACCEPT);
    assert.equal(kubectl.body.apiVersion, 'apidiscovery.k8s.io/v2beta1');
    // A range of another group or kind is not this document.
    const other = await s.client.request('GET', '/apis', {
      headers: { Accept: 'application/json;g=example.com;v=v2beta1;as=APIGroupDiscoveryList' },
    });
    assert.equal(other.status, 406);
  });

  it('answers 304 for the ETag it sent, and a new ETag once a CRD is served', async () => {
    const first = await discovery();
    const etag = String(first.headers.etag);
    const again = await s.client.request('GET', '/apis', { headers: { Accept: ACCEPT, 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.etag, etag);
    assert.equal(again.text, '');
    await createServedCrd(s.client, cronTabCrd());
    try {
      const r = await eventually('the CRD in aggregated discovery', async () => {
        const r = await discovery();
        return version(r.body.items, 'stable.example.com', 'v1') && r;
      });
      assert.notEqual(r.headers.etag, etag);
      const v1 = version(r.body.items, 'stable.example.com', 'v1')!;
      assert.equal(v1.freshness, 'Current');
      assert.deepEqual(v1.resources, [
        {
          resource: 'crontabs',
          responseKind: { group: 'stable.example.com', version: 'v1', kind: 'CronTab' },
          scope: 'Namespaced',
          singularResource: 'crontab',
          verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'].sort(),
          shortNames: ['ct'],
          categories: ['all'],
          subresources: [
            {
              subresource: 'scale',
              responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
              verbs: ['get', 'patch', 'update'],
            },
            {
              subresource: 'status',
              responseKind: { group: 'stable.example.com', version: 'v1', kind: 'CronTab' },
              verbs: ['get', 'patch', 'update'],
            },
          ],
        },
      ]);
    } finally {
      await s.client.delete(`${CRDS}/crontabs.stable.example.com`);
    }
  });

  it("takes a remote APIService's version from the extension server's aggregated /apis, revalidated with its ETag", async () => {
    const v = version((await discovery()).body.items, 'metrics.k8s.io', 'v1beta1')!;
    assert.deepEqual(
      v.resources!.map((r) => [r.resource, r.responseKind.kind, r.scope]),
      [
        ['nodes', 'NodeMetrics', 'Cluster'],
        ['pods', 'PodMetrics', 'Namespaced'],
      ],
    );
    ext.seen.length = 0;
    await poke(1);
    await eventually('fetched again', async () => ext.seen.some((x) => x.url === '/apis'));
    const fetched = ext.seen.find((x) => x.url === '/apis')!;
    assert.match(String(fetched.headers.accept), /as=APIGroupDiscoveryList/);
    assert.equal(fetched.headers['if-none-match'], '"metrics-discovery-1"');
    assert.equal(fetched.headers['x-remote-user'], 'system:kube-aggregator');
    assert.equal(fetched.clientCN, 'front-proxy-client');
    assert.equal(version((await discovery()).body.items, 'metrics.k8s.io', 'v1beta1')!.freshness, 'Current');
  });

  it("falls back to the extension server's legacy discovery, and marks the version Stale while it fails", async () => {
    ext.legacyDiscovery = true;
    try {
      ext.seen.length = 0;
      await poke(2);
      await eventually('legacy document read', async () =>
        ext.seen.some(
          (x) =>
            x.url === '/apis/metrics.k8s.io/v1beta1' &&
            x.headers['x-remote-user'] === 'system:kube-aggregator' &&
            x.headers.accept === 'application/json',
        ),
      );
      const v = version((await discovery()).body.items, 'metrics.k8s.io', 'v1beta1')!;
      assert.equal(v.freshness, 'Current');
      assert.deepEqual(
        v.resources!.map((r) => [r.resource, r.responseKind, r.scope, r.verbs]),
        [
          ['nodes', { group: '', version: '', kind: 'NodeMetrics' }, 'Cluster', ['get', 'list']],
          ['pods', { group: '', version: '', kind: 'PodMetrics' }, 'Namespaced', ['get', 'list']],
        ],
      );
    } finally {
      ext.legacyDiscovery = false;
    }
    ext.failing = true;
    try {
      await poke(3);
      const stale = await eventually('Stale', async () => {
        const v = version((await discovery()).body.items, 'metrics.k8s.io', 'v1beta1');
        return v?.freshness === 'Stale' && v;
      });
      // The last known resources are kept.
      assert.deepEqual(
        stale.resources!.map((r) => r.resource),
        ['nodes', 'pods'],
      );
    } finally {
      ext.failing = false;
    }
    await poke(4);
    await eventually(
      'Current again',
      async () => version((await discovery()).body.items, 'metrics.k8s.io', 'v1beta1')?.freshness === 'Current',
    );
  });

  it('marks the version Stale when the extension server answers garbage, and keeps serving', async () => {
    ext.garbage = true;
    try {
      ext.seen.length = 0;
      await poke(5);
      await eventually('garbage read', async () => ext.seen.some((x) => x.url === '/openapi/v2'));
      const v = await eventually('Stale', async () => {
        const v = version((await discovery()).body.items, 'metrics.k8s.io', 'v1beta1');
        return v?.freshness === 'Stale' && v;
      });
      assert.deepEqual(
        v.resources!.map((r) => r.resource),
        ['nodes', 'pods'],
      );
      const doc = await s.client.get('/openapi/v2');
      assert.equal(doc.status, 200);
      assert.ok(doc.body.definitions['io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetrics'], 'the last good document is kept');
    } finally {
      ext.garbage = false;
    }
    await poke(6);
    await eventually(
      'Current again',
      async () => version((await discovery()).body.items, 'metrics.k8s.io', 'v1beta1')?.freshness === 'Current',
    );
  });

  it("merges the extension server's OpenAPI v2 definitions and paths into /openapi/v2", async () => {
    const doc = await eventually('merged', async () => {
      const r = await s.client.get('/openapi/v2');
      return r.body.definitions['io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetrics'] && r.body;
    });
    assert.ok(doc.paths['/apis/metrics.k8s.io/v1beta1/nodes'].get);
    assert.ok(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments'], 'the served paths stay');
    assert.ok(doc.definitions['apps.v1.Deployment'], 'the served definitions stay');
    // What the extension document refers to comes with it.
    const ref = doc.definitions['io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetrics'].properties.metadata.$ref;
    assert.ok(doc.definitions[ref.slice('#/definitions/'.length)], ref);
    // The protobuf form (what kubectl downloads) holds it too, with its own ETag.
    const pb = await s.client.request('GET', '/openapi/v2', {
      headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
    });
    assert.equal(pb.status, 200);
    assert.ok(pb.bytes.includes(Buffer.from('io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetrics')));
    const etag = String(pb.headers.etag);
    const again = await s.client.request('GET', '/openapi/v2', {
      headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'If-None-Match': etag },
    });
    assert.equal(again.status, 304);
  });
});
