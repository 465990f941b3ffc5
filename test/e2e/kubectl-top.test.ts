/**
 * End to end (issue 27): an orch-apiserver process with a metrics extension server registered as
 * `v1beta1.metrics.k8s.io`; stock kubectl reads it through orch: `kubectl top nodes`, `kubectl top
 * pods`, the extension server's discovery, `kubectl get apiservices` lists every APIService; kubectl
 * (1.28 and 1.32) reads the aggregated discovery document (one GET of /api and /apis, no per-group
 * documents) for `api-resources` and a CRD's kind, and `kubectl explain` finds the extension server's
 * kind in the merged /openapi/v2.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { eventually } from '../support/eventually.js';
import { type ExtensionServer, registration, startExtensionServer } from '../support/extension-server.js';
import { KUBECTL_1_32, newKubectl } from '../support/kubectl.js';
import { run } from '../support/processes.js';

describe('kubectl top through the aggregation layer', () => {
  let s: TestServer;
  let ext: ExtensionServer;
  let k: ReturnType<typeof newKubectl>;

  before(async () => {
    s = await startTestServer({ process: true, args: ['--api-domain=k8s.io'] });
    k = newKubectl(s.kubeconfig);
    ext = await startExtensionServer({
      frontProxyCA: readFileSync(join(s.dataDir, 'certs', 'front-proxy-ca.crt'), 'utf8'),
      serviceName: 'metrics-server',
      namespace: 'kube-system',
    });
    const reg = registration('kube-system', 'metrics-server', ext.port, ext.ca);
    await k.ok(['apply', '-f', '-'], { input: JSON.stringify(reg.service) });
    await k.ok(['apply', '-f', '-'], { input: JSON.stringify(reg.apiService('apiregistration.k8s.io/v1')) });
    await k.ok(['apply', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'n1' },
        status: { capacity: { cpu: '4', memory: '8Gi' }, allocatable: { cpu: '4', memory: '8Gi' } },
      }),
    });
    await eventually('metrics APIService available', async () => {
      const out = await k.run(['get', 'apiservice', 'v1beta1.metrics.k8s.io', '-o', 'jsonpath={.status.conditions[0].status}']);
      return out.stdout === 'True';
    });
  });
  after(async () => {
    await s?.stop();
    await ext?.close();
  });

  it('kubectl top nodes', async () => {
    const out = await k.ok(['top', 'nodes']);
    assert.match(out, /^NAME\s+CPU\(cores\)\s+CPU%\s+MEMORY\(bytes\)\s+MEMORY%/);
    assert.match(out, /\nn1\s+250m\s+6%\s+512Mi\s+6%/);
  });

  it('kubectl top pods', async () => {
    const out = await k.ok(['top', 'pods', '-n', 'default']);
    assert.match(out, /\nweb-1\s+5m\s+20Mi/);
  });

  it('kubectl get --raw shows the extension server discovery', async () => {
    const doc = JSON.parse(await k.ok(['get', '--raw', '/apis/metrics.k8s.io/v1beta1']));
    assert.equal(doc.groupVersion, 'metrics.k8s.io/v1beta1');
    assert.deepEqual(
      doc.resources.map((r: { kind: string }) => r.kind),
      ['NodeMetrics', 'PodMetrics'],
    );
  });

  it('kubectl get apiservices lists local and remote ones', async () => {
    const out = await k.ok(['get', 'apiservices']);
    assert.match(out, /^NAME\s+SERVICE\s+AVAILABLE\s+AGE/);
    assert.match(out, /\nv1\.\s+Local\s+True/);
    assert.match(out, /\nv1\.apps\s+Local\s+True/);
    assert.match(out, /\nv1beta1\.metrics\.k8s\.io\s+kube-system\/metrics-server\s+True/);
  });

  /** kubectl with an empty discovery cache, at -v=8 (requests and response headers on stderr). */
  const fresh = async (args: string[], binary?: string) => {
    const env = { ...k.env, KUBECACHEDIR: `${s.kubeconfig}.cache-${Math.random().toString(36).slice(2)}` };
    const r = binary
      ? await run(binary, ['--kubeconfig', s.kubeconfig, '-v=8', ...args], { env })
      : await k.run(['-v=8', ...args], { env });
    assert.equal(r.code, 0, r.stderr);
    return r;
  };
  const assertAggregated = (stderr: string) => {
    assert.match(stderr, /Content-Type: application\/json;g=apidiscovery\.k8s\.io;v=v2beta1;as=APIGroupDiscoveryList/);
    assert.match(stderr, /GET https:\/\/[^ ]+\/apis\?timeout=/);
    // With the aggregated document kubectl asks for no group version's own document.
    assert.doesNotMatch(stderr, /GET https:\/\/[^ ]+\/apis\/apps\/v1(\?| )/);
    assert.doesNotMatch(stderr, /GET https:\/\/[^ ]+\/apis\/metrics\.k8s\.io\/v1beta1(\?| )/);
  };

  for (const [name, binary] of [
    ['kubectl', undefined],
    ['kubectl 1.32', KUBECTL_1_32],
  ] as const) {
    it(`${name} api-resources reads the aggregated discovery document, extension server included`, async () => {
      const r = await fresh(['api-resources'], binary);
      assert.match(r.stdout, /\ndeployments\s+deploy\s+apps\/v1\s+true\s+Deployment\n/);
      assert.match(r.stdout, /\nnodes\s+metrics\.k8s\.io\/v1beta1\s+false\s+NodeMetrics\n/);
      assert.match(r.stdout, /\npods\s+metrics\.k8s\.io\/v1beta1\s+true\s+PodMetrics\n/);
      assertAggregated(r.stderr);
    });
  }

  it("kubectl get of a CRD's kind and short name, found through the aggregated document", async () => {
    await k.ok(['apply', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'gadgets.agg.example.com' },
        spec: {
          group: 'agg.example.com',
          scope: 'Namespaced',
          names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', shortNames: ['gd'] },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            },
          ],
        },
      }),
    });
    await k.ok(['wait', '--for=condition=Established', 'crd/gadgets.agg.example.com', '--timeout=30s']);
    await eventually(
      'a Gadget created',
      async () =>
        (
          await k.run(['apply', '-f', '-'], {
            input: JSON.stringify({ apiVersion: 'agg.example.com/v1', kind: 'Gadget', metadata: { name: 'g1', namespace: 'default' } }),
          })
        ).code === 0,
    );
    for (const what of ['Gadget', 'gd']) {
      const r = await fresh(['get', what, '-n', 'default']);
      assert.match(r.stdout, /^NAME\s+AGE\ng1\s+/);
      assertAggregated(r.stderr);
    }
  });

  it("kubectl explain finds the extension server's kind in the merged OpenAPI v2 document", async () => {
    const out = await eventually('explained', async () => {
      const r = await k.run(['explain', 'nodemetrics', '--output=plaintext-openapiv2']);
      return r.code === 0 && r.stdout;
    });
    assert.match(out, /KIND:\s+NodeMetrics/);
    assert.match(out, /VERSION:\s+metrics\.k8s\.io\/v1beta1/);
    assert.match(out, /NodeMetrics sets resource usage metrics of a node\./);
    assert.match(out, /usage\s+<map\[string\]string> -required-/);
    const field = await k.ok(['explain', 'nodemetrics.usage', '--output=plaintext-openapiv2']);
    assert.match(field, /The memory usage is the memory working set\./);
  });
});
