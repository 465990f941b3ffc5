/**
 * NodeRestriction on a real server (--enable-admission-plugins=NodeRestriction, Node,RBAC
 * authorization): a kubelet's identity, system:node:n1 in system:nodes, writes only its own Node,
 * without restricted labels, and deletes and evicts only the pods bound to it; the admin is untouched.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { serviceAccountSigningArgs } from '../../support/service-account-signing.js';
import { newTestClient, type TestClient } from '../../support/http-client.js';
import { createDefaultServiceAccount, createNamespace } from '../../support/namespaces.js';

describe('NodeRestriction admission', () => {
  let s: TestServer;
  let n1: TestClient;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-node-restriction-'));
    s = await startTestServer({
      args: ['--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction', ...serviceAccountSigningArgs(dir)],
      tokens: ['n1-token,system:node:n1,n1,"system:nodes"'],
    });
    n1 = newTestClient({ url: s.url, token: 'n1-token', ca: s.ca });
    await createNamespace(s.client, 'work');
    await createDefaultServiceAccount(s.client, 'work');
    for (const [pod, node] of [
      ['on-n1', 'n1'],
      ['on-n2', 'n2'],
    ]) {
      const r = await s.client.post('/api/v1/namespaces/work/pods', {
        metadata: { name: pod },
        spec: { nodeName: node, containers: [{ name: 'c', image: 'x' }] },
      });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    n1?.close();
    await s?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a node creates and labels only its own Node, and not with restricted labels', async () => {
    const own = await n1.post('/api/v1/nodes', { metadata: { name: 'n1', labels: { 'orch.io/hostname': 'n1' } } });
    assert.equal(own.status, 201, own.text);
    const restricted = await n1.patch(
      '/api/v1/nodes/n1',
      { metadata: { labels: { 'node-role.orch.io/control-plane': '' } } },
      'application/merge-patch+json',
    );
    assert.equal(restricted.status, 403, restricted.text);
    assert.equal(restricted.body.message, 'nodes "n1" is forbidden: is not allowed to modify labels: node-role.orch.io/control-plane');
    const taint = await n1.patch(
      '/api/v1/nodes/n1',
      { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } },
      'application/merge-patch+json',
    );
    assert.equal(taint.status, 403, taint.text);
    // The admin is no node: the same label is fine.
    const admin = await s.client.patch(
      '/api/v1/nodes/n1',
      { metadata: { labels: { 'node-role.orch.io/control-plane': '' } } },
      'application/merge-patch+json',
    );
    assert.equal(admin.status, 200, admin.text);
  });

  it('a node deletes and evicts only the pods bound to it', async () => {
    const evictOther = await n1.post('/api/v1/namespaces/work/pods/on-n2/eviction', {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'on-n2' },
    });
    assert.equal(evictOther.status, 403, evictOther.text);
    assert.match(evictOther.body.message, /node n1 can only evict pods with spec.nodeName set to itself/);
    const deleteOther = await n1.delete('/api/v1/namespaces/work/pods/on-n2');
    assert.equal(deleteOther.status, 403, deleteOther.text);
    assert.match(deleteOther.body.message, /node "n1" can only delete pods with spec.nodeName set to itself/);
    assert.equal((await s.client.get('/api/v1/namespaces/work/pods/on-n2')).status, 200);
    const deleteOwn = await n1.delete('/api/v1/namespaces/work/pods/on-n1');
    assert.equal(deleteOwn.status, 200, deleteOwn.text);
  });

  it('a node requests tokens bound only to its own pods (TokenRequest is admitted as a CREATE of serviceaccounts/token)', async () => {
    const pod = await s.client.post('/api/v1/namespaces/work/pods', {
      metadata: { name: 'token-user' },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }] },
    });
    assert.equal(pod.status, 201, pod.text);
    const other = (await s.client.get('/api/v1/namespaces/work/pods/on-n2')).body;
    const request = (name: string, uid: string) => ({
      apiVersion: 'authentication.orch.io/v1',
      kind: 'TokenRequest',
      spec: { audiences: [], boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name, uid } },
    });
    const own = await n1.post('/api/v1/namespaces/work/serviceaccounts/default/token', request('token-user', pod.body.metadata.uid));
    assert.equal(own.status, 201, own.text);
    assert.ok(own.body.status.token);
    // The node reaches the account through its own pod (authorized), but not the other node's pod.
    const theirs = await n1.post('/api/v1/namespaces/work/serviceaccounts/default/token', request('on-n2', other.metadata.uid));
    assert.equal(theirs.status, 403, theirs.text);
    assert.match(theirs.body.message, /node requested token bound to a pod scheduled on a different node/);
  });
});
