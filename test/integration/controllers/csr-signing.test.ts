/**
 * The CSR signing controller against a real orch-apiserver whose client CA is the signing CA: approved
 * requests are issued certificates that authenticate over HTTPS as their CN/O; requests that break
 * their signer's rules are marked Failed; pending and denied ones are left alone.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCA } from '../../../apiserver/component-base/certs/certs.js';
import { newLogger } from '../../../apiserver/component-base/logs/logger.js';
import { parseOptions } from '../../../controllers/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../../controllers/app/controller-manager.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { certRequest } from '../../support/cert-client.js';
import { b64, type CsrOptions, newCsrPem, newKeyPair } from '../../support/csr-fixture.js';
import { eventually } from '../../support/eventually.js';
import { seededCertDirArgs } from '../../support/test-pki.js';

const CSRS = '/apis/certificates.orch.io/v1/certificatesigningrequests';
const HOUR_MS = 3_600_000;

describe('certificatesigningrequest-signing-controller', () => {
  let dataDir: string;
  let srv: TestServer;
  let manager: RunningControllerManager;
  let caPem: string;
  let n = 0;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-csrsigning-'));
    const ca = ensureCA(join(dataDir, 'certs'));
    caPem = ca.certPem;
    srv = await startTestServer({ dataDir, args: [`--client-ca-file=${ca.certFile}`] });
    manager = await runControllerManager(
      parseOptions([
        `--kubeconfig=${srv.kubeconfig}`,
        '--secure-port=0',
        ...seededCertDirArgs(),
        '--bind-address=127.0.0.1',
        '--leader-elect=false',
        '--controllers=csrsigning',
        `--cluster-signing-cert-file=${ca.certFile}`,
        `--cluster-signing-key-file=${ca.keyFile}`,
        '--cluster-signing-duration=48h',
      ]),
      { logger: newLogger({ logLevel: 'error' }) },
    );
  });
  after(async () => {
    await manager?.stop();
    await srv?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Creates a CSR for a new key and returns its name and key. */
  async function createCsr(signerName: string, usages: string[], opts: CsrOptions & { expirationSeconds?: number } = {}) {
    const keys = newKeyPair(opts.type ?? 'ec');
    const name = `csr-${++n}`;
    const spec: Record<string, unknown> = { request: b64(newCsrPem({ ...opts, keys })), signerName, usages };
    if (opts.expirationSeconds) spec.expirationSeconds = opts.expirationSeconds;
    const r = await srv.client.post(CSRS, { metadata: { name }, spec });
    assert.equal(r.status, 201, r.text);
    return { name, key: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
  }

  async function setCondition(name: string, type: 'Approved' | 'Denied') {
    const csr = (await srv.client.get(`${CSRS}/${name}`)).body;
    csr.status.conditions = [{ type, status: 'True', reason: 'Test', message: 'by the test' }];
    const r = await srv.client.put(`${CSRS}/${name}/approval`, csr);
    assert.equal(r.status, 200, r.text);
  }

  const issued = (name: string) =>
    eventually(`certificate of ${name}`, async () => {
      const csr = (await srv.client.get(`${CSRS}/${name}`)).body;
      return csr.status?.certificate ? Buffer.from(csr.status.certificate, 'base64').toString() : undefined;
    });

  const failed = (name: string) =>
    eventually(`Failed condition of ${name}`, async () => {
      const csr = (await srv.client.get(`${CSRS}/${name}`)).body;
      return (csr.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Failed');
    });

  it('issues an API server client certificate that authenticates as its CN and O', async () => {
    const { name, key } = await createCsr('orch.io/orch-apiserver-client', ['client auth', 'digital signature'], {
      cn: 'carol',
      orgs: ['auditors', 'devs'],
      type: 'ed25519',
    });
    await setCondition(name, 'Approved');
    const certPem = await issued(name);
    const cert = new X509Certificate(certPem);
    assert.ok(cert.verify(new X509Certificate(caPem).publicKey));
    assert.equal(Date.parse(cert.validTo) - Date.parse(cert.validFrom), 48 * HOUR_MS);
    // The server records who created a CSR: the certificate's identity.
    const probe = await certRequest(srv.url, { ca: srv.ca, cert: certPem, key }, 'POST', CSRS, {
      metadata: { name: `whoami-${n}` },
      spec: { request: b64(newCsrPem()), signerName: 'example.com/x', usages: ['client auth'] },
    });
    assert.equal(probe.status, 201, probe.text);
    assert.equal(probe.body.spec.username, 'carol');
    assert.deepEqual(probe.body.spec.groups, ['auditors', 'devs', 'system:authenticated']);
    const csr = (await srv.client.get(`${CSRS}/${name}`)).body;
    assert.deepEqual(
      csr.status.conditions.map((c: { type: string }) => c.type),
      ['Approved'],
    );
  });

  it('issues node client and serving certificates for the lifetime asked when shorter than the duration', async () => {
    const client = await createCsr('orch.io/orch-apiserver-client-orchlet', ['digital signature', 'key encipherment', 'client auth'], {
      cn: 'system:node:n1',
      orgs: ['system:nodes'],
      type: 'rsa',
      expirationSeconds: 3600,
    });
    const serving = await createCsr('orch.io/orchlet-serving', ['digital signature', 'server auth'], {
      cn: 'system:node:n1',
      orgs: ['system:nodes'],
      dnsNames: ['n1.cluster.local'],
      ipAddresses: ['10.0.0.7'],
      type: 'ec384',
    });
    await setCondition(client.name, 'Approved');
    await setCondition(serving.name, 'Approved');
    const clientCert = new X509Certificate(await issued(client.name));
    // Short-lived (under 8h): not backdated at the end.
    assert.equal(Date.parse(clientCert.validTo) - Date.parse(clientCert.validFrom), HOUR_MS + 5 * 60_000);
    assert.deepEqual(clientCert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    const servingCert = new X509Certificate(await issued(serving.name));
    assert.deepEqual(servingCert.keyUsage, ['1.3.6.1.5.5.7.3.1']);
    assert.equal(servingCert.subjectAltName, 'DNS:n1.cluster.local, IP Address:10.0.0.7');
    const whoami = await certRequest(
      srv.url,
      { ca: srv.ca, cert: clientCert.toString(), key: client.key },
      'GET',
      `${CSRS}/${client.name}`,
    );
    assert.equal(whoami.status, 200, whoami.text);
  });

  it('marks requests that break their signer rules Failed with the reason, without a certificate', async () => {
    const cases: [string, string[], CsrOptions, string][] = [
      [
        'orch.io/orch-apiserver-client-orchlet',
        ['digital signature', 'client auth'],
        { cn: 'system:node:n2', orgs: ['ops'] },
        'subject organization is not system:nodes',
      ],
      [
        'orch.io/orch-apiserver-client-orchlet',
        ['digital signature', 'client auth'],
        { cn: 'n2', orgs: ['system:nodes'] },
        'subject common name does not begin with system:node:',
      ],
      [
        'orch.io/orchlet-serving',
        ['digital signature', 'server auth'],
        { cn: 'system:node:n2', orgs: ['system:nodes'] },
        'DNS or IP subjectAltName is required',
      ],
      ['orch.io/orch-apiserver-client', ['server auth', 'client auth'], { cn: 'x' }, 'invalid usage for client certificate: server auth'],
    ];
    const names = [];
    for (const [signer, usages, opts] of cases) names.push((await createCsr(signer, usages, opts)).name);
    for (const name of names) await setCondition(name, 'Approved');
    for (const [i, name] of names.entries()) {
      const condition = await failed(name);
      assert.equal(condition.status, 'True');
      assert.equal(condition.reason, 'SignerValidationFailure');
      assert.equal(condition.message, cases[i][3]);
      assert.ok(condition.lastUpdateTime);
      assert.equal((await srv.client.get(`${CSRS}/${name}`)).body.status.certificate, undefined);
    }
  });

  it('leaves pending, denied and foreign-signer requests alone', async () => {
    const pending = await createCsr('orch.io/orch-apiserver-client', ['client auth'], { cn: 'p' });
    const denied = await createCsr('orch.io/orch-apiserver-client', ['client auth'], { cn: 'd' });
    const foreign = await createCsr('example.com/signer', ['client auth'], { cn: 'f' });
    await setCondition(denied.name, 'Denied');
    await setCondition(foreign.name, 'Approved');
    // A request approved after them is signed; by then the others have been looked at too.
    const later = await createCsr('orch.io/orch-apiserver-client', ['client auth'], { cn: 'l' });
    await setCondition(later.name, 'Approved');
    await issued(later.name);
    for (const { name } of [pending, denied, foreign]) {
      const csr = (await srv.client.get(`${CSRS}/${name}`)).body;
      assert.equal(csr.status.certificate, undefined, name);
      assert.ok(!(csr.status.conditions ?? []).some((c: { type: string }) => c.type === 'Failed'), name);
    }
  });
});
