/**
 * End to end (issue 18): `kubectl drain` evicts through pods/eviction and is held back by a
 * PodDisruptionBudget until its status allows a disruption; `kubectl debug` adds an ephemeral
 * container through pods/ephemeralcontainers. Raw HTTPS checks the eviction's bad-input answers.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { newKubectl } from '../support/kubectl.js';
import { createDefaultServiceAccount, createNamespace } from '../support/namespaces.js';
import type { TestClient } from '../support/http-client.js';

const NS = 'drain';
const MERGE = 'application/merge-patch+json';
const pods = (name = '') => `/api/v1/namespaces/${NS}/pods${name ? `/${name}` : ''}`;
const PDBS = `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`;

/** A pod bound to the node and reported Running and Ready, as a node agent would. */
async function runningPod(c: TestClient, name: string, node: string, labels: Record<string, string>): Promise<void> {
  const p = await c.post(pods(), { metadata: { name, labels }, spec: { containers: [{ name: 'app', image: 'nginx' }] } });
  assert.equal(p.status, 201, p.text);
  const b = await c.post(pods(`${name}/binding`), { metadata: { name }, target: { kind: 'Node', name: node } });
  assert.equal(b.status, 201, b.text);
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const s = await c.patch(
    pods(`${name}/status`),
    { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }] } },
    MERGE,
  );
  assert.equal(s.status, 200, s.text);
}

async function setBudgetStatus(c: TestClient, name: string, disruptionsAllowed: number): Promise<void> {
  const r = await c.patch(
    `${PDBS}/${name}/status`,
    { status: { observedGeneration: 1, disruptionsAllowed, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 } },
    MERGE,
  );
  assert.equal(r.status, 200, r.text);
}

describe('kubectl drain and debug through orch', () => {
  let s: TestServer;
  let c: TestClient;
  let k: ReturnType<typeof newKubectl>;

  before(async () => {
    s = await startTestServer();
    c = s.client;
    k = newKubectl(s.kubeconfig);
    await createNamespace(c, NS);
    await createDefaultServiceAccount(c, NS);
    for (const node of ['node-1', 'node-2']) {
      const r = await c.post('/api/v1/nodes', { metadata: { name: node }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(() => s?.stop());

  it('eviction: 404 for a missing pod, 400 for a malformed Eviction or a name mismatch', async () => {
    const missing = await c.post(pods('nope/eviction'), { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'nope' } });
    assert.equal(missing.status, 404, missing.text);
    assert.equal(missing.body.message, 'pods "nope" not found');
    await runningPod(c, 'solo', 'node-2', { app: 'solo' });
    const malformed = await c.post(pods('solo/eviction'), {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'solo' },
      deleteOptions: 'now',
    });
    assert.equal(malformed.status, 400, malformed.text);
    const wrongKind = await c.post(pods('solo/eviction'), { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'solo' } });
    assert.equal(wrongKind.status, 400, wrongKind.text);
    const mismatch = await c.post(pods('solo/eviction'), { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other' } });
    assert.equal(mismatch.status, 400, mismatch.text);
    assert.equal(mismatch.body.message, 'name in URL does not match name in Eviction object');
    // The DeleteOptions inside are honoured: a stale precondition is a conflict and the pod stays.
    const stale = await c.post(pods('solo/eviction'), {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'solo' },
      deleteOptions: { preconditions: { uid: 'not-the-uid' } },
    });
    assert.equal(stale.status, 409, stale.text);
    const dry = await c.post(pods('solo/eviction'), {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'solo' },
      deleteOptions: { dryRun: ['All'] },
    });
    assert.equal(dry.status, 201, dry.text);
    assert.equal((await c.get(pods('solo'))).status, 200);
    const ok = await c.post(pods('solo/eviction'), { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'solo' } });
    assert.equal(ok.status, 201, ok.text);
    assert.equal((await c.get(pods('solo'))).status, 404);
  });

  it('kubectl drain is blocked by the budget (429), then evicts once it allows a disruption', async () => {
    await runningPod(c, 'web-1', 'node-1', { app: 'web' });
    const pdb = await c.post(PDBS, { metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } });
    assert.equal(pdb.status, 201, pdb.text);
    await setBudgetStatus(c, 'web', 0);

    const direct = await c.post(pods('web-1/eviction'), { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web-1' } });
    assert.equal(direct.status, 429, direct.text);
    assert.equal(direct.body.message, "Cannot evict pod as it would violate the pod's disruption budget.");
    assert.deepEqual(direct.body.details.causes, [
      { reason: 'DisruptionBudget', message: 'The disruption budget web needs 1 healthy pods and has 1 currently' },
    ]);

    const blocked = await k.run(['drain', 'node-1', '--force', '--timeout=4s']);
    assert.notEqual(blocked.code, 0, blocked.stdout);
    assert.match(blocked.stderr + blocked.stdout, /Cannot evict pod as it would violate the pod's disruption budget/);
    assert.equal((await c.get(pods('web-1'))).status, 200, 'the pod stays');
    assert.equal((await c.get('/api/v1/nodes/node-1')).body.spec.unschedulable, true, 'drain cordoned the node');

    await setBudgetStatus(c, 'web', 1);
    const out = await k.ok(['drain', 'node-1', '--force', '--timeout=30s']);
    assert.match(out, /evicted/);
    assert.match(out, /node\/node-1 drained/);
    assert.equal((await c.get(pods('web-1'))).status, 404);
    const status = (await c.get(`${PDBS}/web`)).body.status;
    assert.equal(status.disruptionsAllowed, 0);
    assert.ok(status.disruptedPods['web-1'], 'the evicted pod is recorded as disrupted');
    assert.deepEqual(
      status.conditions.map((x: { type: string; status: string; reason: string }) => [x.type, x.status, x.reason]),
      [['DisruptionAllowed', 'False', 'InsufficientPods']],
    );
  });

  it('kubectl debug adds an ephemeral container; existing ones may not change', async () => {
    await runningPod(c, 'app', 'node-2', { app: 'dbg' });
    await k.ok(['debug', '-n', NS, 'app', '--image=busybox', '-c', 'debugger', '--target=app']);
    const pod = (await c.get(pods('app'))).body;
    assert.equal(pod.spec.ephemeralContainers.length, 1);
    const [e] = pod.spec.ephemeralContainers;
    assert.deepEqual([e.name, e.image, e.targetContainerName, e.terminationMessagePolicy], ['debugger', 'busybox', 'app', 'File']);
    assert.equal(pod.spec.containers.length, 1);

    const view = await c.get(pods('app/ephemeralcontainers'));
    assert.equal(view.status, 200, view.text);
    assert.equal(view.body.kind, 'Pod');
    const removed = await c.put(pods('app/ephemeralcontainers'), { ...view.body, spec: { ...view.body.spec, ephemeralContainers: [] } });
    assert.equal(removed.status, 422, removed.text);
    assert.match(removed.body.message, /existing ephemeral containers "debugger" may not be removed/);
    // Only the ephemeral containers change through the subresource.
    const other = await c.patch(pods('app/ephemeralcontainers'), { spec: { activeDeadlineSeconds: 5 }, metadata: {} }, MERGE);
    assert.equal(other.status, 200, other.text);
    assert.equal(other.body.spec.activeDeadlineSeconds, undefined);
    const disc = (await c.get('/api/v1')).body.resources.find((r: { name: string }) => r.name === 'pods/eviction');
    assert.deepEqual(disc, {
      name: 'pods/eviction',
      singularName: '',
      namespaced: true,
      group: 'policy',
      version: 'v1',
      kind: 'Eviction',
      verbs: ['create'],
    });
  });
});
