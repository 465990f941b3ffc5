/**
 * The CSR approving controller against a real orch-apiserver under RBAC: the controller's
 * SubjectAccessReviews are answered by the server from the default nodeclient / selfnodeclient roles,
 * bound as a cluster installer binds them (bootstrappers: nodeclient, nodes: selfnodeclient).
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
import { bindNodeBootstrapRoles } from '../../support/node-bootstrap-rbac.js';
import { seededCertDirArgs } from '../../support/test-pki.js';

const CSRS = '/apis/certificates.orch.io/v1/certificatesigningrequests';
const NODE_SIGNER = 'orch.io/orch-apiserver-client-orchlet';
const NODE_USAGES = ['digital signature', 'key encipherment', 'client auth'];

describe('certificatesigningrequest-approving-controller', () => {
  let dataDir: string;
  let srv: TestServer;
  let manager: RunningControllerManager;
  let n = 0;
  let as: (cn: string, orgs: string[]) => CertCredentials;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-csrapproving-'));
    const certDir = join(dataDir, 'certs');
    const ca = ensureCA(certDir);
    srv = await startTestServer({ dataDir, args: ['--authorization-mode=Node,RBAC', `--client-ca-file=${ca.certFile}`] });
    await bindNodeBootstrapRoles(srv.client);
    as = (cn, orgs) => {
      const pair = newClientCert(ca, { cn, orgs });
      return { ca: srv.ca, cert: pair.certPem, key: pair.keyPem };
    };
    manager = await runControllerManager(
      parseOptions([
        `--kubeconfig=${srv.kubeconfig}`,
        '--secure-port=0',
        ...seededCertDirArgs(),
        '--bind-address=127.0.0.1',
        '--leader-elect=false',
        '--controllers=csrapproving',
      ]),
      { logger: newLogger({ logLevel: 'error' }) },
    );
  });
  after(async () => {
    await manager?.stop();
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
  });

  it("approves a node's renewal of its own certificate as selfnodeclient", async () => {
    const name = await createCsr(as('system:node:n1', ['system:nodes']), NODE_SIGNER, ['digital signature', 'client auth'], node1);
    const condition = await approval(name);
    assert.equal(condition.message, 'Auto approving self kubelet client certificate after SubjectAccessReview.');
  });

  it('leaves a recognized request pending while RBAC does not allow it, and approves it once a binding does', async () => {
    // n2 asks for n1's identity: a nodeclient request, which nodes are not allowed by default.
    const name = await createCsr(as('system:node:n2', ['system:nodes']), NODE_SIGNER, NODE_USAGES, node1);
    await new Promise((r) => setTimeout(r, 800));
    assert.equal((await srv.client.get(`${CSRS}/${name}`)).body.status.conditions, undefined);
    const rbac = '/apis/rbac.authorization.orch.io/v1/clusterrolebindings';
    const bound = await srv.client.post(rbac, {
      metadata: { name: 'test:n2-nodeclient' },
      roleRef: {
        apiGroup: 'rbac.authorization.orch.io',
        kind: 'ClusterRole',
        name: 'system:certificates.orch.io:certificatesigningrequests:nodeclient',
      },
      subjects: [{ apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: 'system:node:n2' }],
    });
    assert.equal(bound.status, 201, bound.text);
    try {
      const condition = await approval(name);
      assert.equal(condition.reason, 'AutoApproved');
      assert.equal(condition.message, 'Auto approving kubelet client certificate after SubjectAccessReview.');
    } finally {
      await srv.client.delete(`${rbac}/test:n2-nodeclient`);
    }
  });

  it('does not approve requests that are not node client requests, though the requester may have node clients approved', async () => {
    const bootstrapper = as('system:bootstrap:abcdef', ['system:bootstrappers']);
    const names = [
      await createCsr(bootstrapper, 'orch.io/orch-apiserver-client', NODE_USAGES, node1),
      await createCsr(bootstrapper, NODE_SIGNER, ['client auth'], node1),
      await createCsr(bootstrapper, NODE_SIGNER, NODE_USAGES, { ...node1, dnsNames: ['n1'] }),
      await createCsr(bootstrapper, NODE_SIGNER, NODE_USAGES, { cn: 'alice', orgs: ['system:nodes'] }),
    ];
    const last = await createCsr(bootstrapper, NODE_SIGNER, NODE_USAGES, node1);
    await approval(last);
    for (const name of names) assert.equal((await srv.client.get(`${CSRS}/${name}`)).body.status.conditions, undefined, name);
  });
});
