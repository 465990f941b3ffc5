/**
 * End to end: the node-bootstrap walk-through on real processes — orch-apiserver (bootstrap-token
 * and client-certificate authentication) and orch-controller-manager (csrapproving, csrsigning,
 * bootstrapsigner, tokencleaner). A node holding only a bootstrap token checks cluster-info's
 * signature, creates a node client CSR, which is auto-approved and signed; its certificate then
 * authenticates as system:node:<name>, and its renewal is approved as selfnodeclient. The server
 * runs Node,RBAC and answers the controller's SubjectAccessReviews from the default roles, bound as
 * kubeadm binds them (bootstrappers: nodeclient, nodes: selfnodeclient).
 * Measured: CSR create → issued certificate, p50 over 100 auto-approved requests.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ensureCA } from '../../apiserver/component-base/certs/certs.js';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { certRequest, type CertCredentials } from '../support/cert-client.js';
import { b64, newCsrPem } from '../support/csr-fixture.js';
import { eventually } from '../support/eventually.js';
import { newTestClient, type TestClient } from '../support/http-client.js';
import { startProcess, type Proc } from '../support/processes.js';
import { bindNodeBootstrapRoles } from '../support/node-bootstrap-rbac.js';
import { seededCertDirArgs } from '../support/test-pki.js';

const CONTROLLER_MANAGER = 'dist/controllers/cmd/controller-manager.js';
const CSRS = '/apis/certificates.orch.io/v1/certificatesigningrequests';
const SELF_REVIEW = '/apis/authentication.orch.io/v1/selfsubjectreviews';
const NODE_SIGNER = 'orch.io/orch-apiserver-client-orchlet';
const USAGES = ['digital signature', 'key encipherment', 'client auth'];
const TOKEN_ID = 'abcdef';
const TOKEN_SECRET = '0123456789abcdef';

describe('node bootstrap walk-through', () => {
  let dir: string;
  let srv: TestServer;
  let manager: Proc;
  let node: TestClient;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-bootstrap-e2e-'));
    const certDir = join(dir, 'certs');
    const ca = ensureCA(certDir);
    srv = await startTestServer({
      process: true,
      dataDir: dir,
      args: ['--authorization-mode=Node,RBAC', `--client-ca-file=${ca.certFile}`, '--enable-bootstrap-token-auth'],
    });
    await bindNodeBootstrapRoles(srv.client);
    manager = startProcess(process.execPath, [
      CONTROLLER_MANAGER,
      `--kubeconfig=${srv.kubeconfig}`,
      '--secure-port=0',
      ...seededCertDirArgs(),
      '--bind-address=127.0.0.1',
      '--leader-elect=false',
      '--controllers=csrapproving,csrsigning,bootstrapsigner,tokencleaner',
      `--cluster-signing-cert-file=${ca.certFile}`,
      `--cluster-signing-key-file=${ca.keyFile}`,
    ]);
    await manager.waitFor(/"msg":"started controller".*"controller":"certificatesigningrequest-signing-controller"/, 30_000);
    const token = await srv.client.post('/api/v1/namespaces/orch-system/secrets', {
      metadata: { name: `bootstrap-token-${TOKEN_ID}` },
      type: 'bootstrap.orch.io/token',
      stringData: {
        'token-id': TOKEN_ID,
        'token-secret': TOKEN_SECRET,
        expiration: new Date(Date.now() + 3_600_000).toISOString(),
        'usage-bootstrap-authentication': 'true',
        'usage-bootstrap-signing': 'true',
      },
    });
    assert.equal(token.status, 201, token.text);
    node = newTestClient({ url: srv.url, ca: srv.ca, token: `${TOKEN_ID}.${TOKEN_SECRET}` });
  });
  after(async () => {
    node?.close();
    await manager?.stop('SIGTERM');
    await srv?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** A node client CSR for `nodeName` created by `as`, and its key. */
  async function requestNodeCertificate(as: (body: unknown) => Promise<{ status: number; body: any; text: string }>, name: string) {
    const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const request = newCsrPem({ cn: 'system:node:n1', orgs: ['system:nodes'], keys });
    const r = await as({ metadata: { name }, spec: { request: b64(request), signerName: NODE_SIGNER, usages: USAGES } });
    assert.equal(r.status, 201, r.text);
    return { key: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, csr: r.body };
  }

  const issued = (name: string) =>
    eventually(
      `certificate of ${name}`,
      async () => {
        const csr = (await srv.client.get(`${CSRS}/${name}`)).body;
        return csr.status?.certificate ? csr : undefined;
      },
      30_000,
    );

  let nodeCreds: CertCredentials;

  it('a bootstrap token reads cluster-info and verifies its signature, then gets a node client certificate approved and signed', async () => {
    const cm = await eventually('the cluster-info signature', async () => {
      const r = await node.get('/api/v1/namespaces/orch-public/configmaps/cluster-info');
      return r.status === 200 && r.body.data[`jws-kubeconfig-${TOKEN_ID}`] ? r.body : undefined;
    });
    const [header, , signature] = cm.data[`jws-kubeconfig-${TOKEN_ID}`].split('.');
    const signed = `${header}.${Buffer.from(cm.data.kubeconfig).toString('base64url')}`;
    assert.equal(createHmac('sha256', TOKEN_SECRET).update(signed).digest('base64url'), signature);
    assert.equal(Buffer.from(parse(cm.data.kubeconfig).clusters[0].cluster['certificate-authority-data'], 'base64').toString(), srv.ca);

    const { key, csr } = await requestNodeCertificate((body) => node.post(CSRS, body), 'node-n1');
    assert.equal(csr.spec.username, `system:bootstrap:${TOKEN_ID}`);
    assert.ok(csr.spec.groups.includes('system:bootstrappers'));
    const done = await issued('node-n1');
    const approved = done.status.conditions.find((c: { type: string }) => c.type === 'Approved');
    assert.equal(approved.reason, 'AutoApproved');
    assert.equal(approved.message, 'Auto approving kubelet client certificate after SubjectAccessReview.');

    nodeCreds = { ca: srv.ca, cert: Buffer.from(done.status.certificate, 'base64').toString(), key };
    const review = await certRequest(srv.url, nodeCreds, 'POST', SELF_REVIEW, {
      apiVersion: 'authentication.orch.io/v1',
      kind: 'SelfSubjectReview',
    });
    assert.equal(review.status, 201, review.text);
    assert.equal(review.body.status.userInfo.username, 'system:node:n1');
    assert.deepEqual(review.body.status.userInfo.groups, ['system:nodes', 'system:authenticated']);
  });

  it('the node renews with its own certificate: approved as selfnodeclient', async () => {
    await requestNodeCertificate((body) => certRequest(srv.url, nodeCreds, 'POST', CSRS, body), 'node-n1-renewal');
    const done = await issued('node-n1-renewal');
    assert.equal(
      done.status.conditions.find((c: { type: string }) => c.type === 'Approved').message,
      'Auto approving self kubelet client certificate after SubjectAccessReview.',
    );
    assert.equal(done.spec.username, 'system:node:n1');
  });

  it('measures CSR create → issued certificate over 100 auto-approved requests', async (t) => {
    const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const request = b64(newCsrPem({ cn: 'system:node:n1', orgs: ['system:nodes'], keys }));
    const times: number[] = [];
    for (let i = 0; i < 100; i++) {
      const name = `latency-${i}`;
      const t0 = performance.now();
      const r = await node.post(CSRS, { metadata: { name }, spec: { request, signerName: NODE_SIGNER, usages: USAGES } });
      assert.equal(r.status, 201, r.text);
      await eventually(name, async () => !!(await srv.client.get(`${CSRS}/${name}`)).body.status?.certificate, 30_000);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    t.diagnostic(
      `CSR create → issued (auto-approved, polled every 50 ms): p50 ${Math.round(times[49])} ms, p90 ${Math.round(times[89])} ms, max ${Math.round(times[99])} ms`,
    );
  });
});
