/**
 * The CSR approving controller against a real orch-apiserver. The API server does not answer
 * SubjectAccessReviews yet (the authorization work lands separately), so the controller manager talks
 * to it through a small HTTPS front that answers SubjectAccessReviews from a test policy — a test
 * webhook — and forwards every other request to the server unchanged.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCA, newClientCert } from '../../../apiserver/component-base/certs/certs.js';
import { newLogger } from '../../../apiserver/component-base/logs/logger.js';
import { parseOptions } from '../../../controllers/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../../controllers/app/controller-manager.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { certRequest, type CertCredentials } from '../../support/cert-client.js';
import { b64, type CsrOptions, newCsrPem } from '../../support/csr-fixture.js';
import { eventually } from '../../support/eventually.js';
import { type ReviewFront, type ReviewSpec, startReviewFront } from '../../support/review-front.js';

const CSRS = '/apis/certificates.orch.io/v1/certificatesigningrequests';
const NODE_SIGNER = 'orch.io/orch-apiserver-client-orchlet';
const NODE_USAGES = ['digital signature', 'key encipherment', 'client auth'];

describe('certificatesigningrequest-approving-controller', () => {
  let dataDir: string;
  let srv: TestServer;
  let front: ReviewFront;
  let manager: RunningControllerManager;
  let reviews: ReviewSpec[] = [];
  /** The test's authorizer: which (group, subresource) pairs are allowed. */
  const allowed = new Set<string>(['system:bootstrappers/nodeclient', 'system:nodes/selfnodeclient']);
  let n = 0;
  let as: (cn: string, orgs: string[]) => CertCredentials;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-csrapproving-'));
    const certDir = join(dataDir, 'certs');
    const ca = ensureCA(certDir);
    srv = await startTestServer({ dataDir, args: [`--client-ca-file=${ca.certFile}`] });
    as = (cn, orgs) => {
      const pair = newClientCert(ca, { cn, orgs });
      return { ca: srv.ca, cert: pair.certPem, key: pair.keyPem };
    };
    front = await startReviewFront({
      server: srv,
      certDir,
      kubeconfigFile: join(dataDir, 'front.kubeconfig'),
      allow: (spec) => (spec.groups ?? []).some((g) => allowed.has(`${g}/${spec.resourceAttributes.subresource}`)),
    });
    reviews = front.reviews;
    manager = await runControllerManager(
      parseOptions([
        `--kubeconfig=${front.kubeconfig}`,
        '--secure-port=0',
        '--bind-address=127.0.0.1',
        '--leader-elect=false',
        '--controllers=csrapproving',
      ]),
      { logger: newLogger({ logLevel: 'error' }) },
    );
  });
  after(async () => {
    await manager?.stop();
    await front?.close();
    await srv?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A CSR created by the holder of `creds`. */
  async function createCsr(creds: CertCredentials, signerName: string, usages: string[], opts: CsrOptions) {
    const name = `csr-${++n}`;
    const r = await certRequest(srv.url, creds, 'POST', CSRS, {
      metadata: { name },
      spec: { request: b64(newCsrPem(opts)), signerName, usages },
    });
    assert.equal(r.status, 201, r.text);
    return name;
  }

  const approval = (name: string) =>
    eventually(`approval of ${name}`, async () => {
      const csr = (await srv.client.get(`${CSRS}/${name}`)).body;
      return (csr.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Approved');
    });

  const node1 = { cn: 'system:node:n1', orgs: ['system:nodes'] };

  it('approves a bootstrapping node client request the requester may create as nodeclient', async () => {
    const name = await createCsr(as('system:bootstrap:abcdef', ['system:bootstrappers']), NODE_SIGNER, NODE_USAGES, node1);
    const condition = await approval(name);
    assert.equal(condition.status, 'True');
    assert.equal(condition.reason, 'AutoApproved');
    assert.equal(condition.message, 'Auto approving kubelet client certificate after SubjectAccessReview.');
    const review = reviews.find((r) => r.user === 'system:bootstrap:abcdef');
    assert.deepEqual(review?.resourceAttributes, {
      group: 'certificates.orch.io',
      resource: 'certificatesigningrequests',
      subresource: 'nodeclient',
      verb: 'create',
      version: '*',
    });
    assert.deepEqual(review?.groups, ['system:bootstrappers', 'system:authenticated']);
  });

  it("approves a node's renewal of its own certificate as selfnodeclient", async () => {
    const name = await createCsr(as('system:node:n1', ['system:nodes']), NODE_SIGNER, ['digital signature', 'client auth'], node1);
    const condition = await approval(name);
    assert.equal(condition.message, 'Auto approving self kubelet client certificate after SubjectAccessReview.');
    assert.equal(reviews.filter((r) => r.user === 'system:node:n1')[0].resourceAttributes.subresource, 'selfnodeclient');
  });

  it('leaves a recognized request pending while no review allows it, and approves it once one does', async () => {
    const name = await createCsr(as('system:node:n2', ['system:nodes']), NODE_SIGNER, NODE_USAGES, node1);
    await eventually('a review for n2', async () => reviews.some((r) => r.user === 'system:node:n2'));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await srv.client.get(`${CSRS}/${name}`)).body.status.conditions, undefined);
    assert.deepEqual(
      [...new Set(reviews.filter((r) => r.user === 'system:node:n2').map((r) => r.resourceAttributes.subresource))],
      ['nodeclient'],
    );
    allowed.add('system:nodes/nodeclient');
    try {
      assert.equal((await approval(name)).reason, 'AutoApproved');
    } finally {
      allowed.delete('system:nodes/nodeclient');
    }
  });

  it('does not review or approve requests that are not node client requests', async () => {
    const bootstrapper = as('system:bootstrap:abcdef', ['system:bootstrappers']);
    const names = [
      await createCsr(bootstrapper, 'orch.io/orch-apiserver-client', NODE_USAGES, node1),
      await createCsr(bootstrapper, NODE_SIGNER, ['client auth'], node1),
      await createCsr(bootstrapper, NODE_SIGNER, NODE_USAGES, { ...node1, dnsNames: ['n1'] }),
      await createCsr(bootstrapper, NODE_SIGNER, NODE_USAGES, { cn: 'alice', orgs: ['system:nodes'] }),
    ];
    const before = reviews.length;
    const last = await createCsr(bootstrapper, NODE_SIGNER, NODE_USAGES, node1);
    await approval(last);
    assert.equal(reviews.length, before + 1);
    for (const name of names) assert.equal((await srv.client.get(`${CSRS}/${name}`)).body.status.conditions, undefined, name);
  });
});
