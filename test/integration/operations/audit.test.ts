/**
 * Audit: a policy file picks each request's level and stages; events (audit.<domain>/v1) go to a
 * rotated log file and to a batching webhook; credentials never reach the log; admission,
 * authorization and deprecated APIs annotate the events.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestClient } from '../../support/http-client.js';
import { createDefaultServiceAccount, createNamespace } from '../../support/namespaces.js';
import { startWebhookServer, type WebhookServer } from '../../support/webhook-server.js';
import { eventually } from '../../support/eventually.js';

// Kubernetes' apiVersion: an operator's existing policy file works in the default domain (the domain's audit.orch.io/v1 too, unit-tested).
const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  nonResourceURLs: ['/healthz*', '/readyz*', '/livez*', '/metrics']
- level: RequestResponse
  resources:
  - group: ''
    resources: [secrets, configmaps, serviceaccounts/token]
- level: Request
  verbs: [create]
  namespaces: [requests]
- level: None
  users: [quiet]
- level: Metadata
  omitStages: [ResponseStarted]
  resources:
  - group: ''
    resources: ['*/log']
- level: Metadata
`;

type Event = Record<string, any>;

async function readEvents(path: string): Promise<Event[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l)
    .map((l) => JSON.parse(l) as Event);
}

describe('audit', () => {
  let dir: string;
  let s: TestServer;
  let hook: WebhookServer;
  const logPath = () => join(dir, 'audit', 'audit.log');
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-audit-'));
    hook = await startWebhookServer(() => ({ raw: '{}' }));
    await writeFile(join(dir, 'policy.yaml'), POLICY);
    await writeFile(
      join(dir, 'webhook.kubeconfig'),
      JSON.stringify({
        clusters: [{ name: 'audit', cluster: { server: hook.url('/audit'), 'certificate-authority-data': hook.caBundle } }],
        users: [{ name: 'audit', user: {} }],
        contexts: [{ name: 'audit', context: { cluster: 'audit', user: 'audit' } }],
        'current-context': 'audit',
      }),
    );
    s = await startTestServer({
      args: [
        // The revision ledger (named though it is the default): history reads are audited.
        '--history-retention=24h',
        `--audit-policy-file=${join(dir, 'policy.yaml')}`,
        `--audit-log-path=${logPath()}`,
        '--audit-log-maxsize=1',
        '--audit-log-maxbackup=1',
        `--audit-webhook-config-file=${join(dir, 'webhook.kubeconfig')}`,
        '--audit-webhook-batch-max-size=3',
        '--audit-webhook-batch-max-wait=100ms',
      ],
      tokens: ['quiet-token,quiet,quiet,"devs"'],
    });
  });
  after(async () => {
    await s.stop();
    await hook.close();
    await rm(dir, { recursive: true, force: true });
  });

  const eventOf = (auditID: string, stage = 'ResponseComplete'): Promise<Event> =>
    eventually(`event ${auditID} at ${stage}`, async () =>
      (await readEvents(logPath())).find((x) => x.auditID === auditID && x.stage === stage),
    );

  it('records history reads as get on the history subresource', async () => {
    const cm = await s.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'remembered' } });
    assert.equal(cm.status, 201);
    const read = await s.client.get('/api/v1/namespaces/default/configmaps/remembered/history');
    assert.equal(read.status, 200, read.text);
    const e = await eventOf(String(read.headers['audit-id']));
    assert.equal(e.verb, 'get');
    assert.deepEqual(e.objectRef, {
      resource: 'configmaps',
      subresource: 'history',
      namespace: 'default',
      name: 'remembered',
      apiVersion: 'v1',
    });
    // The policy's RequestResponse rule names `configmaps`, which (as in Kubernetes) leaves its subresources to later rules.
    assert.equal(e.level, 'Metadata');
    assert.equal(e.responseObject, undefined);
    assert.deepEqual(e.responseStatus, { metadata: {}, code: 200 });
  });

  it('logs RequestResponse events with both objects, Metadata events with neither, and the Audit-Id header names them', async () => {
    const cm = await s.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'audited' }, data: { k: 'v' } });
    assert.equal(cm.status, 201);
    const e = await eventOf(String(cm.headers['audit-id']));
    assert.equal(e.apiVersion, 'audit.orch.io/v1');
    assert.equal(e.kind, 'Event');
    assert.equal(e.level, 'RequestResponse');
    assert.equal(e.verb, 'create');
    assert.equal(e.requestURI, '/api/v1/namespaces/default/configmaps');
    assert.deepEqual(e.user, { username: 'admin', uid: 'admin', groups: ['system:masters', 'system:authenticated'] });
    assert.deepEqual(e.objectRef, { resource: 'configmaps', namespace: 'default', name: 'audited', apiVersion: 'v1' });
    assert.deepEqual(e.responseStatus, { metadata: {}, code: 201 });
    assert.deepEqual(e.requestObject.data, { k: 'v' });
    assert.equal(e.responseObject.metadata.uid, cm.body.metadata.uid);
    assert.match(e.requestReceivedTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.equal(e.annotations['authorization.orch.io/decision'], 'allow');
    assert.ok(e.sourceIPs.includes('127.0.0.1'));
    // RequestReceived is omitted by the policy.
    assert.equal((await readEvents(logPath())).filter((x) => x.auditID === e.auditID).length, 1);

    const version = await s.client.get('/version');
    const v = await eventOf(String(version.headers['audit-id']));
    assert.equal(v.level, 'Metadata');
    assert.equal(v.verb, 'get');
    assert.equal(v.objectRef, undefined);
    assert.equal(v.requestObject, undefined);
    assert.equal(v.responseObject, undefined);
  });

  it('audits requests that fail authentication, naming the credentials tried', async () => {
    const stranger = newTestClient({ url: s.url, token: 'not-a-token', ca: s.ca });
    const r = await stranger.get('/api/v1/namespaces/default/configmaps?marker=failed-authn');
    stranger.close();
    assert.equal(r.status, 401);
    const e = await eventually('the failed authentication event', async () =>
      (await readEvents(logPath())).find((x) => x.requestURI.endsWith('marker=failed-authn')),
    );
    assert.equal(e.stage, 'ResponseStarted');
    assert.deepEqual(e.user, {});
    assert.equal(e.level, 'RequestResponse');
    assert.deepEqual(e.responseStatus, { metadata: {}, message: 'Authentication failed, attempted: bearer', code: 401 });
  });

  it('never logs Secret bodies, whatever the policy says', async () => {
    const secret = await s.client.post('/api/v1/namespaces/default/secrets', {
      metadata: { name: 'creds' },
      stringData: { password: 'hunter2-very-secret' },
    });
    assert.equal(secret.status, 201);
    const read = await s.client.get('/api/v1/namespaces/default/secrets/creds');
    const e = await eventOf(String(read.headers['audit-id']));
    assert.equal(e.level, 'Metadata');
    assert.equal(e.responseObject, undefined);
    const created = await eventOf(String(secret.headers['audit-id']));
    assert.equal(created.requestObject, undefined);
    assert.equal(created.objectRef.name, 'creds');
    const all = await readFile(logPath(), 'utf8');
    assert.ok(
      !all.includes('hunter2') && !all.includes(Buffer.from('hunter2-very-secret').toString('base64')),
      'no secret value in the log',
    );
  });

  it('matches rules by namespace and verb, and level None by user', async () => {
    await createNamespace(s.client, 'requests');
    const r = await s.client.post('/api/v1/namespaces/requests/services', {
      metadata: { name: 'svc' },
      spec: { ports: [{ port: 80 }] },
    });
    assert.equal(r.status, 201);
    const e = await eventOf(String(r.headers['audit-id']));
    assert.equal(e.level, 'Request');
    assert.equal(e.requestObject.metadata.name, 'svc');
    assert.equal(e.responseObject, undefined);
    const quiet = newTestClient({ url: s.url, token: 'quiet-token', ca: s.ca });
    const q = await quiet.get('/version');
    quiet.close();
    assert.equal(q.headers['audit-id'], undefined);
  });

  it('records impersonation, long-running stages and the deprecated-API annotation', async () => {
    const r = await s.client.request('GET', '/api/v1/namespaces/default/configmaps/audited', {
      headers: { 'Impersonate-User': 'someone', 'Impersonate-Group': 'devs' },
    });
    const e = await eventOf(String(r.headers['audit-id']));
    assert.equal(e.user.username, 'admin');
    assert.deepEqual(e.impersonatedUser, { username: 'someone', groups: ['devs', 'system:authenticated'] });
    assert.equal(e.annotations['authorization.orch.io/decision'], 'allow');

    const w = await s.client.watch('/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1');
    await w.ended;
    const watches = await eventually('the watch’s two events', async () => {
      const found = (await readEvents(logPath())).filter((x) => x.verb === 'watch' && x.requestURI.includes('timeoutSeconds=1'));
      return found.length === 2 && found;
    });
    assert.deepEqual(
      watches.map((x) => x.stage),
      ['ResponseStarted', 'ResponseComplete'],
    );
    assert.equal(watches[0].responseStatus.code, 200);

    const cs = await s.client.get('/api/v1/componentstatuses');
    assert.match(String(cs.headers.warning), /deprecated/);
    const d = await eventOf(String(cs.headers['audit-id']));
    assert.equal(d.annotations['orch.io/deprecated'], 'true');
    assert.match(
      (await s.client.get('/metrics')).text,
      /apiserver_requested_deprecated_apis\{group="",version="v1",resource="componentstatuses",subresource="",removed_release=""\} 1/,
    );
  });

  it('annotates events with PodSecurity audit violations', async () => {
    await createNamespace(s.client, 'restricted');
    await s.client.patch(
      '/api/v1/namespaces/restricted',
      { metadata: { labels: { 'pod-security.orch.io/audit': 'restricted' } } },
      'application/merge-patch+json',
    );
    await createDefaultServiceAccount(s.client, 'restricted');
    const pod = await s.client.post('/api/v1/namespaces/restricted/pods', {
      metadata: { name: 'root' },
      spec: { containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }] },
    });
    assert.equal(pod.status, 201);
    const e = await eventOf(String(pod.headers['audit-id']));
    assert.equal(e.annotations['pod-security.orch.io/enforce-policy'], 'privileged:latest');
    assert.match(
      e.annotations['pod-security.orch.io/audit-violations'],
      /^would violate PodSecurity "restricted:latest": .*privileged \(container "c" must not set securityContext.privileged=true\)/,
    );
  });

  it('sends events to the webhook in batches', async () => {
    const r = await s.client.get('/api/v1/namespaces/default/configmaps/audited');
    const id = String(r.headers['audit-id']);
    const lists = hook.reviews as unknown as { kind: string; apiVersion: string; items: Event[] }[];
    await eventually('the event at the webhook', async () => lists.some((l) => l.items.some((e) => e.auditID === id)));
    assert.ok(lists.every((l) => l.kind === 'EventList' && l.apiVersion === 'audit.orch.io/v1' && l.items.length <= 3));
    assert.ok(
      lists.some((l) => l.items.length === 3),
      'full batches leave at once',
    );
  });

  it('rotates the log at --audit-log-maxsize and keeps --audit-log-maxbackup files', async () => {
    const big = 'x'.repeat(200 * 1024);
    for (let i = 0; i < 12; i++) {
      // Each create logs the data twice (request and response): ~400 KiB an event.
      assert.equal(
        (await s.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: `big-${i}` }, data: { big } })).status,
        201,
      );
    }
    const files = (await readdir(join(dir, 'audit'))).sort();
    assert.equal(files.length, 2, files.join(' '));
    assert.equal(files[1], 'audit.log');
    assert.match(files[0], /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/);
    const current = (await readFile(logPath())).length;
    assert.ok(current <= 1024 * 1024, `the current file stays under 1 MiB: ${current}`);
  });
});
