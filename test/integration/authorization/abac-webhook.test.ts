/** --authorization-mode ABAC (a policy file) and Webhook (SubjectAccessReview to a real HTTPS service), on a real server. */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { stringify } from 'yaml';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestClient } from '../../support/http-client.js';
import { ensureCA, ensureServingCert } from '../../../apiserver/component-base/certs/certs.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-authz-modes-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ABAC', () => {
  let s: TestServer;
  before(async () => {
    const policy = join(dir, 'abac.jsonl');
    const line = (spec: object) => JSON.stringify({ apiVersion: 'abac.authorization.orch.io/v1beta1', kind: 'Policy', spec });
    await writeFile(
      policy,
      [
        '# jane reads configmaps in team; ops may do anything in apps; everyone authenticated reads /version',
        line({ user: 'jane', namespace: 'team', resource: 'configmaps', apiGroup: '', readonly: true }),
        line({ group: 'ops', namespace: '*', resource: '*', apiGroup: 'apps' }),
        '',
        line({ group: 'system:authenticated', nonResourcePath: '/version', readonly: true }),
      ].join('\n'),
    );
    s = await startTestServer({
      args: ['--authorization-mode=ABAC,RBAC', `--authorization-policy-file=${policy}`],
      tokens: ['jane-token,jane,1,""', 'ops-token,olga,2,"ops"'],
    });
  });
  after(async () => s?.stop());

  it('allows what a policy line matches; refuses the rest with its reason', async () => {
    const jane = newTestClient({ url: s.url, token: 'jane-token', ca: s.ca });
    const ops = newTestClient({ url: s.url, token: 'ops-token', ca: s.ca });
    try {
      assert.equal((await jane.get('/api/v1/namespaces/team/configmaps')).status, 200);
      const write = await jane.post('/api/v1/namespaces/team/configmaps', { metadata: { name: 'x' } });
      assert.equal(write.status, 403);
      assert.match(write.body.message, /cannot create resource "configmaps" in API group "" in the namespace "team": No policy matched\.$/);
      assert.equal((await jane.get('/api/v1/namespaces/default/configmaps')).status, 403);
      assert.equal((await jane.get('/version')).status, 200);
      assert.equal((await ops.get('/apis/apps/v1/namespaces/default/deployments')).status, 200);
      assert.equal((await ops.get('/api/v1/namespaces/default/pods')).status, 403);
      const rules = await ops.post('/apis/authorization.orch.io/v1/selfsubjectrulesreviews', { spec: { namespace: 'default' } });
      assert.deepEqual(rules.body.status.resourceRules[0], { verbs: ['*'], apiGroups: ['apps'], resources: ['*'] });
    } finally {
      jane.close();
      ops.close();
    }
  });
});

describe('Webhook', () => {
  let s: TestServer;
  let hook: Server;
  const reviews: {
    apiVersion: string;
    spec: { user: string; groups?: string[]; resourceAttributes?: { verb: string; resource: string } };
  }[] = [];
  before(async () => {
    const certDir = join(dir, 'webhook-certs');
    const ca = ensureCA(certDir);
    const serving = ensureServingCert(certDir, ca, ['127.0.0.1']);
    hook = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const review = JSON.parse(body);
        reviews.push(review);
        const { user, resourceAttributes: r } = review.spec;
        const status =
          user === 'hooked' && r?.verb === 'get'
            ? { allowed: true, reason: 'hooked may get' }
            : user === 'banned'
              ? { allowed: false, denied: true, reason: 'banned by the webhook' }
              : { allowed: false };
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status }));
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()));
    const config = join(dir, 'webhook.kubeconfig');
    await writeFile(
      config,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'hook',
            cluster: {
              server: `https://127.0.0.1:${(hook.address() as AddressInfo).port}/authorize`,
              'certificate-authority': ca.certFile,
            },
          },
        ],
        users: [{ name: 'apiserver', user: { token: 'secret' } }],
        contexts: [{ name: 'hook', context: { cluster: 'hook', user: 'apiserver' } }],
        'current-context': 'hook',
      }),
    );
    s = await startTestServer({
      args: ['--authorization-mode=Webhook,RBAC', `--authorization-webhook-config-file=${config}`, '--authorization-webhook-version=v1'],
      tokens: ['hooked-token,hooked,1,"team"', 'banned-token,banned,2,"system:masters-not"'],
    });
  });
  after(async () => {
    await s?.stop();
    hook?.close();
  });

  it('asks the service with a SubjectAccessReview; allowed allows, denied denies, answers are cached', async () => {
    const hooked = newTestClient({ url: s.url, token: 'hooked-token', ca: s.ca });
    const banned = newTestClient({ url: s.url, token: 'banned-token', ca: s.ca });
    try {
      assert.equal((await hooked.get('/api/v1/namespaces/default/configmaps/none')).status, 404, 'allowed, then not found');
      const sent = reviews.find((r) => r.spec.user === 'hooked')!;
      assert.equal(sent.apiVersion, 'authorization.k8s.io/v1');
      assert.deepEqual(sent.spec.groups, ['team', 'system:authenticated']);
      const before = reviews.length;
      assert.equal((await hooked.get('/api/v1/namespaces/default/configmaps/none')).status, 404);
      assert.equal(reviews.length, before, 'the second decision came from the cache');
      const refused = await hooked.delete('/api/v1/namespaces/default/configmaps/none');
      assert.equal(refused.status, 403);
      const denied = await banned.get('/api/v1/namespaces/default/configmaps');
      assert.equal(denied.status, 403);
      assert.match(denied.body.message, /: banned by the webhook$/);
    } finally {
      hooked.close();
      banned.close();
    }
  });

  it('a webhook that cannot be reached has no opinion: later modes still decide', async () => {
    await new Promise<void>((r) => hook.close(() => r()));
    hook.closeAllConnections();
    const banned = newTestClient({ url: s.url, token: 'banned-token', ca: s.ca });
    try {
      const r = await banned.get('/api/v1/namespaces/default/secrets/x');
      assert.equal(r.status, 403);
      assert.match(r.body.message, /webhook authorizer failed: /);
      // RBAC, after it, still answers: the admin and the public paths.
      assert.equal((await s.client.get('/api/v1/namespaces/default/secrets')).status, 200);
      assert.equal((await banned.get('/healthz')).status, 200);
    } finally {
      banned.close();
    }
  });
});
