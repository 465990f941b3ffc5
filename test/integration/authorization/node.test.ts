/** --authorization-mode=Node,RBAC: a kubelet reaches what its pods reference, through a graph kept from watches. */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestClient, type TestClient } from '../../support/http-client.js';

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`never: ${what}`);
}

describe('Node authorization', () => {
  let s: TestServer;
  let n1: TestClient;
  const can = async (resourceAttributes: object) =>
    (await n1.post('/apis/authorization.orch.io/v1/selfsubjectaccessreviews', { spec: { resourceAttributes } })).body.status;
  before(async () => {
    s = await startTestServer({
      args: ['--authorization-mode=Node,RBAC'],
      tokens: ['n1-token,system:node:n1,n1,"system:nodes"', 'nobody-token,system:node:,x,"system:nodes"'],
    });
    n1 = newTestClient({ url: s.url, token: 'n1-token', ca: s.ca });
    for (const [kind, name] of [
      ['secrets', 's1'],
      ['secrets', 's2'],
      ['configmaps', 'c1'],
      // The ServiceAccount admission plugin wants the account the pods run as.
      ['serviceaccounts', 'builder'],
    ]) {
      assert.equal((await s.client.post(`/api/v1/namespaces/default/${kind}`, { metadata: { name } })).status, 201);
    }
    const pod = (name: string, node: string, secret: string) => ({
      metadata: { name },
      spec: {
        nodeName: node,
        serviceAccountName: 'builder',
        containers: [{ name: 'c', image: 'x', env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'c1', key: 'a' } } }] }],
        volumes: [
          { name: 'v', secret: { secretName: secret } },
          { name: 'data', persistentVolumeClaim: { claimName: 'claim' } },
        ],
      },
    });
    assert.equal((await s.client.post('/api/v1/namespaces/default/pods', pod('p1', 'n1', 's1'))).status, 201);
    assert.equal((await s.client.post('/api/v1/namespaces/default/pods', pod('p2', 'n2', 's2'))).status, 201);
  });
  after(async () => {
    n1.close();
    await s.stop();
  });

  it('reads the secrets and configmaps its pods reference, nothing else', async () => {
    await eventually(async () => (await n1.get('/api/v1/namespaces/default/secrets/s1')).status === 200, 'n1 reads s1');
    const other = await n1.get('/api/v1/namespaces/default/secrets/s2');
    assert.equal(other.status, 403);
    assert.equal(
      other.body.message,
      `secrets "s2" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node 'n1' and this object`,
    );
    assert.equal((await n1.get('/api/v1/namespaces/default/configmaps/c1')).status, 200);
    const list = await n1.get('/api/v1/namespaces/default/secrets');
    assert.equal(list.status, 403);
    assert.match(list.body.message, /: No Object name found$/);
    assert.equal((await can({ namespace: 'default', verb: 'update', resource: 'secrets', name: 's1' })).allowed, false);
    assert.equal(
      (await can({ namespace: 'default', verb: 'create', resource: 'serviceaccounts', subresource: 'token', name: 'builder' })).allowed,
      true,
    );
    assert.equal((await can({ namespace: 'default', verb: 'get', resource: 'persistentvolumeclaims', name: 'claim' })).allowed, true);
  });

  it('follows the graph as pods move, and lets go when they are deleted', async () => {
    assert.equal((await s.client.delete('/api/v1/namespaces/default/pods/p1?gracePeriodSeconds=0')).status, 200);
    await eventually(async () => (await n1.get('/api/v1/namespaces/default/secrets/s1')).status === 403, 'n1 loses s1');
  });

  it('writes its own Node, Lease and CSINode only; reads what system:node allows', async () => {
    assert.equal((await can({ verb: 'patch', resource: 'nodes', name: 'n1' })).allowed, true);
    assert.equal((await can({ verb: 'patch', resource: 'nodes', subresource: 'status', name: 'n1' })).allowed, true);
    const other = await can({ verb: 'patch', resource: 'nodes', name: 'n2' });
    assert.deepEqual(other, { allowed: false, reason: 'can only modify the node object of the requesting node' });
    assert.equal((await can({ verb: 'list', resource: 'nodes' })).allowed, true);
    assert.equal((await can({ verb: 'list', resource: 'pods' })).allowed, true);
    const lease = { group: 'coordination.orch.io', resource: 'leases', namespace: 'orch-node-lease' };
    assert.equal((await can({ ...lease, verb: 'update', name: 'n1' })).allowed, true);
    assert.equal((await can({ ...lease, verb: 'update', name: 'n2' })).allowed, false);
    assert.equal((await can({ ...lease, namespace: 'default', verb: 'update', name: 'n1' })).allowed, false);
    assert.equal((await can({ group: 'storage.orch.io', resource: 'csinodes', verb: 'update', name: 'n1' })).allowed, true);
    assert.equal((await can({ verb: 'delete', resource: 'namespaces', name: 'default' })).allowed, false);
  });

  it('says nothing about users that are not nodes, and a nameless node gets nothing', async () => {
    const nobody = newTestClient({ url: s.url, token: 'nobody-token', ca: s.ca });
    const r = await nobody.get('/api/v1/nodes');
    nobody.close();
    assert.equal(r.status, 403);
    assert.match(r.body.message, /unknown node for user "system:node:"/);
    const rules = await n1.post('/apis/authorization.orch.io/v1/selfsubjectrulesreviews', { spec: { namespace: 'default' } });
    assert.equal(rules.body.status.incomplete, true);
    assert.equal(rules.body.status.evaluationError, 'node authorizer does not support user rule resolution');
  });
});
