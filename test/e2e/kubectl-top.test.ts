/**
 * End to end (issue 27): an orch-apiserver process with a metrics extension server registered as
 * `v1beta1.metrics.k8s.io`; stock kubectl reads it through orch: `kubectl top nodes`, `kubectl top
 * pods`, the aggregated discovery document, and `kubectl get apiservices` lists every APIService.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { eventually } from '../support/eventually.js';
import { type ExtensionServer, registration, startExtensionServer } from '../support/extension-server.js';
import { newKubectl } from '../support/kubectl.js';

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
});
