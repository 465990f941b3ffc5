/**
 * End to end: a real orch-apiserver process driven by the real kubectl — client-side apply twice with a
 * removed field, server-side apply by two managers with a conflict and --force-conflicts, the upgrade
 * from client-side to server-side apply, and kubectl patch of every type.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { newKubectl } from '../support/kubectl.js';
import { startTestServer, type TestServer } from '../support/api-server.js';

function deployment(image: string, opts: { sidecar?: boolean; tier?: boolean } = {}): string {
  return [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: web',
    '  labels:',
    '    app: web',
    ...(opts.tier ? ['    tier: front'] : []),
    'spec:',
    '  replicas: 2',
    '  selector: {matchLabels: {app: web}}',
    '  template:',
    '    metadata: {labels: {app: web}}',
    '    spec:',
    '      containers:',
    '      - name: app',
    `        image: ${image}`,
    '        ports: [{containerPort: 8080}]',
    ...(opts.sidecar ? ['      - name: sidecar', '        image: proxy:1'] : []),
    '',
  ].join('\n');
}

const configMap = (data: Record<string, string>) =>
  [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: settings',
    'data:',
    ...Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`),
    '',
  ].join('\n');

describe('kubectl apply and patch', () => {
  let server: TestServer;
  let k: ReturnType<typeof newKubectl>;
  const getJson = async (...args: string[]) => JSON.parse(await k.ok(['get', ...args, '-o', 'json', '--show-managed-fields']));
  const managers = (obj: any) => obj.metadata.managedFields.map((e: any) => `${e.manager}/${e.operation}`).sort();

  before(async () => {
    server = await startTestServer({ process: true });
    k = newKubectl(server.kubeconfig);
  });
  after(async () => {
    await server?.stop();
  });

  it('client-side apply twice: the second apply removes what the first set and the file dropped', async () => {
    assert.match(
      await k.ok(['apply', '-f', '-'], { input: deployment('app:1', { sidecar: true, tier: true }) }),
      /deployment.apps\/web created/,
    );
    assert.match(await k.ok(['apply', '-f', '-'], { input: deployment('app:2') }), /deployment.apps\/web configured/);
    const d = await getJson('deployment', 'web');
    assert.deepEqual(d.metadata.labels, { app: 'web' });
    assert.deepEqual(
      d.spec.template.spec.containers.map((c: any) => `${c.name}=${c.image}`),
      ['app=app:2'],
    );
    assert.deepEqual(managers(d), ['kubectl-client-side-apply/Update']);
  });

  it('server-side apply by a second manager conflicts, and --force-conflicts takes the field', async () => {
    await k.ok(['apply', '--server-side', '-f', '-'], { input: configMap({ mode: 'fast', size: '1' }) });
    const conflict = await k.run(['apply', '--server-side', '--field-manager=tuner', '-f', '-'], { input: configMap({ mode: 'slow' }) });
    assert.equal(conflict.code, 1);
    assert.match(conflict.stderr, /Apply failed with 1 conflict: conflict with "kubectl": \.data\.mode/);
    await k.ok(['apply', '--server-side', '--field-manager=tuner', '--force-conflicts', '-f', '-'], { input: configMap({ mode: 'slow' }) });
    const cm = await getJson('configmap', 'settings');
    assert.deepEqual(cm.data, { mode: 'slow', size: '1' });
    const owned = Object.fromEntries(cm.metadata.managedFields.map((e: any) => [e.manager, Object.keys(e.fieldsV1['f:data']).sort()]));
    assert.deepEqual(owned, { kubectl: ['f:size'], tuner: ['f:mode'] });
  });

  it('server-side apply takes over from client-side apply without conflicts', async () => {
    assert.match(await k.ok(['apply', '--server-side', '-f', '-'], { input: deployment('app:3') }), /serverside-applied/);
    const d = await getJson('deployment', 'web');
    assert.equal(d.spec.template.spec.containers[0].image, 'app:3');
    assert.ok(managers(d).includes('kubectl/Apply'));
  });

  it('kubectl patch of every type', async () => {
    await k.ok(['create', 'service', 'clusterip', 'api', '--tcp=80:8080']);
    await k.ok(['patch', 'service', 'api', '--type=strategic', '-p', '{"spec":{"ports":[{"port":443,"name":"https","targetPort":8443}]}}']);
    await k.ok(['patch', 'service', 'api', '--type=merge', '-p', '{"metadata":{"labels":{"team":"core"}}}']);
    await k.ok(['patch', 'service', 'api', '--type=json', '-p', '[{"op":"replace","path":"/spec/ports/0/name","value":"web"}]']);
    const svc = await getJson('service', 'api');
    assert.deepEqual(
      svc.spec.ports.map((p: any) => `${p.name}:${p.port}`),
      ['web:443', '80-8080:80'],
    );
    assert.equal(svc.metadata.labels.team, 'core');
    assert.ok(managers(svc).includes('kubectl-patch/Update'));
    const bad = await k.run(['patch', 'service', 'api', '--type=json', '-p', '[{"op":"test","path":"/spec/type","value":"NodePort"}]']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /testing value \/spec\/type failed/);
  });
});
