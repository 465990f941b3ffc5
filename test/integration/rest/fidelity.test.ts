/**
 * Behaviours the differential checker (npm run compare) found different from Kubernetes 1.28 and
 * that were fixed, one test per cell or rule: the resourceVersion table's limit and continue cells,
 * strategy Warning headers, EndpointSlice's read-only deprecatedTopology, the generation rules of
 * EndpointSlices and PriorityClasses, the built-in PriorityClasses, Job labels and
 * delete warnings, 405 on collection writes, 415 without details, Node pod CIDRs, and a deleted
 * Service taking its Endpoints along.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createDefaultServiceAccount, createNamespace } from '../../support/namespaces.js';
import type { TestClient } from '../../support/http-client.js';

const NS = '/api/v1/namespaces/fid';
const container = { name: 'c', image: 'busybox' };
const warnings = (h: string | string[] | undefined) => (h === undefined ? [] : Array.isArray(h) ? h : [h]).join('\n');

describe('fidelity to Kubernetes 1.28', () => {
  let s: TestServer;
  let c: TestClient;

  before(async () => {
    s = await startTestServer({ args: ['--api-domain=k8s.io'] });
    c = s.client;
    await createNamespace(c, 'fid');
    await createDefaultServiceAccount(c, 'fid');
  });
  after(() => s.stop());

  describe('list: the resourceVersion table', () => {
    let first: string;
    before(async () => {
      first = (await c.post(`${NS}/configmaps`, { metadata: { name: 'rv-a' } })).body.metadata.resourceVersion;
      await c.post(`${NS}/configmaps`, { metadata: { name: 'rv-b' } });
    });

    it('limit with a non-zero resourceVersion and no match is an exact read at it', async () => {
      const r = await c.get(`${NS}/configmaps?limit=10&resourceVersion=${first}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        r.body.items.map((i: any) => i.metadata.name).filter((n: string) => n.startsWith('rv-')),
        ['rv-a'],
      );
      assert.equal(r.body.metadata.resourceVersion, first);
    });

    it('without a limit the same resourceVersion is not-older-than: the current state', async () => {
      const r = await c.get(`${NS}/configmaps?resourceVersion=${first}`);
      assert.deepEqual(
        r.body.items.map((i: any) => i.metadata.name).filter((n: string) => n.startsWith('rv-')),
        ['rv-a', 'rv-b'],
      );
    });

    it('continue with resourceVersion=0 continues at the token revision', async () => {
      const p1 = await c.get(`${NS}/configmaps?limit=1&labelSelector=`);
      await c.post(`${NS}/configmaps`, { metadata: { name: 'rv-c' } });
      const token = encodeURIComponent(p1.body.metadata.continue);
      const p2 = await c.get(`${NS}/configmaps?limit=10&resourceVersion=0&continue=${token}`);
      assert.equal(p2.status, 200, p2.text);
      assert.equal(p2.body.metadata.resourceVersion, p1.body.metadata.resourceVersion);
      assert.ok(!p2.body.items.some((i: any) => i.metadata.name === 'rv-c'));
    });

    it('continue with a non-zero resourceVersion is still a 400', async () => {
      const p1 = await c.get(`${NS}/configmaps?limit=1`);
      const r = await c.get(`${NS}/configmaps?limit=1&resourceVersion=${first}&continue=${encodeURIComponent(p1.body.metadata.continue)}`);
      assert.equal(r.status, 400);
      assert.equal(r.body.message, 'specifying resource version is not allowed when using continue');
    });
  });

  describe('strategy warnings', () => {
    it('a Pod using a deprecated node label is created with a Warning', async () => {
      const r = await c.post(`${NS}/pods`, {
        metadata: { name: 'warned' },
        spec: { nodeSelector: { 'beta.kubernetes.io/arch': 'amd64' }, containers: [container] },
      });
      assert.equal(r.status, 201, r.text);
      assert.equal(
        warnings(r.headers.warning),
        '299 - "spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use \\"kubernetes.io/arch\\" instead"',
      );
    });

    it("a Deployment's template is checked at spec.template", async () => {
      const r = await c.post('/apis/apps/v1/namespaces/fid/deployments', {
        metadata: { name: 'warned' },
        spec: {
          selector: { matchLabels: { app: 'w' } },
          template: {
            metadata: { labels: { app: 'w' } },
            spec: {
              topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }],
              containers: [container],
            },
          },
        },
      });
      assert.equal(r.status, 201, r.text);
      assert.match(
        warnings(r.headers.warning),
        /spec\.template\.spec\.topologySpreadConstraints\[0\]\.labelSelector: a null labelSelector results in matching no pod/,
      );
    });

    it('an Ingress with the class annotation and no ingressClassName is warned', async () => {
      const r = await c.post('/apis/networking.k8s.io/v1/namespaces/fid/ingresses', {
        metadata: { name: 'warned', annotations: { 'kubernetes.io/ingress.class': 'nginx' } },
        spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } } },
      });
      assert.equal(r.status, 201, r.text);
      assert.match(
        warnings(r.headers.warning),
        /annotation \\"kubernetes.io\/ingress.class\\" is deprecated, please use 'spec.ingressClassName' instead/,
      );
    });

    it('a valid object with nothing odd has no Warning', async () => {
      const r = await c.post(`${NS}/pods`, { metadata: { name: 'plain' }, spec: { containers: [container] } });
      assert.equal(r.headers.warning, undefined);
    });
  });

  describe('EndpointSlice', () => {
    const EPS = '/apis/discovery.k8s.io/v1/namespaces/fid/endpointslices';
    it('deprecatedTopology is read-only in v1: dropped on create and on update', async () => {
      const r = await c.post(EPS, {
        metadata: { name: 'topo' },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['10.1.2.3'], deprecatedTopology: { zone: 'a' } }],
      });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.endpoints[0].deprecatedTopology, undefined);
      const u = await c.patch(
        `${EPS}/topo`,
        { endpoints: [{ addresses: ['10.1.2.4'], deprecatedTopology: { zone: 'b' } }] },
        'application/merge-patch+json',
      );
      assert.equal(u.status, 200, u.text);
      assert.equal(u.body.endpoints[0].deprecatedTopology, undefined);
    });

    it('a label change bumps the generation', async () => {
      const before = (await c.get(`${EPS}/topo`)).body.metadata.generation;
      const r = await c.patch(`${EPS}/topo`, { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json');
      assert.equal(r.body.metadata.generation, before + 1);
    });
  });

  describe('PriorityClass', () => {
    const PC = '/apis/scheduling.k8s.io/v1/priorityclasses';
    it('has generation 1 from its create on, whatever changes', async () => {
      const r = await c.post(PC, { metadata: { name: 'pc-gen' }, value: 10 });
      assert.equal(r.body.metadata.generation, 1);
      const u = await c.patch(`${PC}/pc-gen`, { description: 'changed' }, 'application/merge-patch+json');
      assert.equal(u.body.metadata.generation, 1);
    });

    it('the built-in classes exist, without a globalDefault field', async () => {
      for (const name of ['system-node-critical', 'system-cluster-critical']) {
        const r = await c.get(`${PC}/${name}`);
        assert.equal(r.status, 200);
        assert.equal('globalDefault' in r.body, false);
        assert.equal(r.body.metadata.generation, 1);
      }
    });
  });

  describe('Job', () => {
    const JOBS = '/apis/batch/v1/namespaces/fid/jobs';
    const job = (name: string, labels?: Record<string, string>) => ({
      metadata: { name, ...(labels ? { labels } : {}) },
      spec: { suspend: true, template: { spec: { restartPolicy: 'Never', containers: [container] } } },
    });

    it('a Job without labels takes its template labels, the generated ones included', async () => {
      const r = await c.post(JOBS, job('labelled'));
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body.metadata.labels, r.body.spec.template.metadata.labels);
      assert.equal(r.body.metadata.labels['batch.kubernetes.io/controller-uid'], r.body.metadata.uid);
      assert.equal(r.body.metadata.labels['job-name'], 'labelled');
    });

    it('a Job with labels of its own keeps them', async () => {
      const r = await c.post(JOBS, job('own', { team: 'a' }));
      assert.deepEqual(r.body.metadata.labels, { team: 'a' });
    });

    it('a DELETE that names no propagation is warned that the pods stay, also when it fails', async () => {
      const warning = /child pods are preserved by default when jobs are deleted/;
      const r = await c.delete(`${JOBS}/own`);
      assert.equal(r.status, 200);
      assert.match(warnings(r.headers.warning), warning);
      const missing = await c.delete(`${JOBS}/missing`);
      assert.equal(missing.status, 404);
      assert.match(warnings(missing.headers.warning), warning);
      const explicit = await c.delete(`${JOBS}/labelled?propagationPolicy=Background`);
      assert.equal(explicit.headers.warning, undefined);
    });
  });

  it('PUT and PATCH on a collection are 405 MethodNotAllowed', async () => {
    const put = await c.put(`${NS}/configmaps`, { metadata: { name: 'x' } });
    assert.equal(put.status, 405);
    assert.equal(put.body.reason, 'MethodNotAllowed');
    const patch = await c.patch(`${NS}/configmaps`, {}, 'application/merge-patch+json');
    assert.equal(patch.status, 405);
  });

  it('an unknown patch type is a 415 without details', async () => {
    await c.post(`${NS}/configmaps`, { metadata: { name: 'patched' } });
    const r = await c.patch(`${NS}/configmaps/patched`, {}, 'text/plain');
    assert.equal(r.status, 415);
    assert.equal(r.body.details, undefined);
    assert.match(r.body.message, /^the body of the request was in an unknown format - accepted media types include: /);
  });

  it("a Node's podCIDR and podCIDRs are one field", async () => {
    const r = await c.post('/api/v1/nodes', { metadata: { name: 'cidr-node' }, spec: { podCIDR: '10.244.0.0/24' } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.spec.podCIDRs, ['10.244.0.0/24']);
    const bad = await c.post('/api/v1/nodes', { metadata: { name: 'bad-cidr' }, spec: { podCIDR: 'bad' } });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.details.causes, [
      { reason: 'FieldValueInvalid', message: 'Invalid value: []string{"bad"}: must be valid CIDR', field: 'spec.podCIDRs[0]' },
    ]);
  });

  it('deleting a Service deletes its Endpoints', async () => {
    await c.post(`${NS}/services`, { metadata: { name: 'withep' }, spec: { ports: [{ port: 80 }] } });
    await c.post(`${NS}/endpoints`, {
      metadata: { name: 'withep' },
      subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 80 }] }],
    });
    assert.equal((await c.delete(`${NS}/services/withep`)).status, 200);
    assert.equal((await c.get(`${NS}/endpoints/withep`)).status, 404);
  });

  it('a dry-run Service deletion leaves its Endpoints', async () => {
    await c.post(`${NS}/services`, { metadata: { name: 'dry' }, spec: { ports: [{ port: 80 }] } });
    await c.post(`${NS}/endpoints`, { metadata: { name: 'dry' }, subsets: [] });
    assert.equal((await c.delete(`${NS}/services/dry?dryRun=All`)).status, 200);
    assert.equal((await c.get(`${NS}/endpoints/dry`)).status, 200);
  });
});
