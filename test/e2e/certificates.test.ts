/**
 * End to end: certificates in `npm start`'s all-in-one cluster in --api-domain=k8s.io mode, driven by
 * the real kubectl. A request created with `kubectl create`, approved with `kubectl certificate
 * approve`, is signed by orch-controller-manager with the cluster CA; kubectl then authenticates
 * with the issued certificate as its CN/O. `kubectl certificate deny` leaves a request unsigned;
 * `kubectl get csr --field-selector spec.signerName=…` selects by signer.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { b64, newCsrPem } from '../support/csr-fixture.js';
import { eventually } from '../support/eventually.js';
import { newKubectl } from '../support/kubectl.js';
import { freePort } from '../support/free-ports.js';
import { startProcess, type Proc } from '../support/processes.js';
import { seedAllInOneDataDir } from '../support/test-pki.js';

const ALL_IN_ONE = 'dist/scripts/all-in-one.js';

describe('certificates with kubectl (k8s.io mode)', () => {
  let dir: string;
  let aio: Proc;
  let kubectl: ReturnType<typeof newKubectl>;
  let port: number;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-certs-e2e-'));
    port = await freePort();
    seedAllInOneDataDir(join(dir, 'data'), 'k8s.io');
    aio = startProcess(process.execPath, [
      ALL_IN_ONE,
      '--data-dir',
      join(dir, 'data'),
      '--secure-port',
      String(port),
      '--api-domain=k8s.io',
    ]);
    await aio.waitFor(/orch is ready/, 60_000);
    kubectl = newKubectl(join(dir, 'data', 'admin.kubeconfig'));
  });
  after(async () => {
    await aio?.stop('SIGINT');
    await rm(dir, { recursive: true, force: true });
  });

  const csrYaml = (name: string, request: string, signerName = 'kubernetes.io/kube-apiserver-client') =>
    stringify({
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name },
      spec: { request: b64(request), signerName, usages: ['digital signature', 'client auth'], expirationSeconds: 3600 },
    });

  it('approve → issued by the controller manager → kubectl authenticates with the certificate as CN/O', async () => {
    const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await kubectl.ok(['create', '-f', '-'], { input: csrYaml('alice', newCsrPem({ cn: 'alice', orgs: ['devs'], keys })) });
    assert.match(await kubectl.ok(['get', 'csr', 'alice']), /alice\s+\S+\s+kubernetes\.io\/kube-apiserver-client\s+admin\s+60m\s+Pending/);
    assert.match(await kubectl.ok(['certificate', 'approve', 'alice']), /certificatesigningrequest.certificates.k8s.io\/alice approved/);
    const certificate = await eventually(
      'the certificate',
      async () => (await kubectl.ok(['get', 'csr', 'alice', '-o', 'jsonpath={.status.certificate}'])) || undefined,
      60_000,
    );
    assert.match(await kubectl.ok(['get', 'csr', 'alice']), /Approved,Issued/);

    await writeFile(join(dir, 'alice.crt'), Buffer.from(certificate, 'base64'));
    await writeFile(join(dir, 'alice.key'), keys.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const ca = join(dir, 'data', 'certs', 'ca.crt');
    const asAlice = [`--server=https://127.0.0.1:${port}`, `--certificate-authority=${ca}`];
    const creds = [`--client-certificate=${join(dir, 'alice.crt')}`, `--client-key=${join(dir, 'alice.key')}`];
    // The server records the creator of a request: the certificate's identity.
    const aliceKubeconfig = join(dir, 'alice.kubeconfig');
    await writeFile(aliceKubeconfig, stringify({ apiVersion: 'v1', kind: 'Config', clusters: [], users: [], contexts: [] }));
    const alice = newKubectl(aliceKubeconfig);
    // Authorization is Node,RBAC under npm start: the certificate's group gets the node bootstrapper's
    // right to request certificates, so the request below is authorized by its O.
    await kubectl.ok(['create', '-f', '-'], {
      input: stringify({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'devs-request-certificates' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node-bootstrapper' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' }],
      }),
    });
    await alice.ok([...asAlice, ...creds, 'create', '-f', '-'], {
      input: csrYaml('by-alice', newCsrPem({ cn: 'x' }), 'example.com/other'),
    });
    assert.equal(
      await kubectl.ok(['get', 'csr', 'by-alice', '-o', 'jsonpath={.spec.username} {.spec.groups}']),
      'alice ["devs","system:authenticated"]',
    );
  });

  it('deny leaves the request unsigned', async () => {
    await kubectl.ok(['create', '-f', '-'], { input: csrYaml('bob', newCsrPem({ cn: 'bob' })) });
    assert.match(await kubectl.ok(['certificate', 'deny', 'bob']), /certificatesigningrequest.certificates.k8s.io\/bob denied/);
    await new Promise((r) => setTimeout(r, 1000));
    assert.match(await kubectl.ok(['get', 'csr', 'bob']), /bob\s+\S+\s+kubernetes\.io\/kube-apiserver-client\s+admin\s+60m\s+Denied\s*$/m);
    assert.equal(await kubectl.ok(['get', 'csr', 'bob', '-o', 'jsonpath={.status.certificate}']), '');
  });

  it('kubectl get csr --field-selector spec.signerName selects by signer', async () => {
    const other = await kubectl.ok(['get', 'csr', '--field-selector', 'spec.signerName=example.com/other', '-o', 'name']);
    assert.equal(other.trim(), 'certificatesigningrequest.certificates.k8s.io/by-alice');
    const clients = await kubectl.ok(['get', 'csr', '--field-selector=spec.signerName!=example.com/other', '-o', 'name']);
    assert.deepEqual(clients.trim().split('\n').sort(), [
      'certificatesigningrequest.certificates.k8s.io/alice',
      'certificatesigningrequest.certificates.k8s.io/bob',
    ]);
    const bad = await kubectl.run(['get', 'csr', '--field-selector', 'spec.username=admin']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /field label not supported: spec.username/);
  });
});
