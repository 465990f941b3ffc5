/**
 * The CSR cleaner against a real orch-apiserver, its clock moved forward: issued certificates go when
 * they expire, approved (issued), denied and failed requests after an hour, pending ones after a day.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCertificateRequestPem } from '../../../apiserver/api/certificates/pkcs10.js';
import { CsrCleaner } from '../../../controllers/csrcleaner/csr-cleaner.js';
import { CertificateAuthority } from '../../../controllers/csrsigning/certificate-authority.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestControllerContext } from '../../support/controller-context.js';
import { b64, newCsrPem } from '../../support/csr-fixture.js';
import { eventually } from '../../support/eventually.js';

const CSRS = '/apis/certificates.orch.io/v1/certificatesigningrequests';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('certificatesigningrequest-cleaner-controller', () => {
  let srv: TestServer;
  let stop: () => Promise<void>;
  const abort = new AbortController();
  let running: Promise<void>;
  let offsetMs = 0;
  let ca: CertificateAuthority;

  before(async () => {
    srv = await startTestServer();
    const certs = join(srv.dataDir, 'certs');
    ca = new CertificateAuthority(readFileSync(join(certs, 'ca.crt'), 'utf8'), readFileSync(join(certs, 'ca.key'), 'utf8'));
  });
  after(async () => {
    abort.abort();
    await running;
    await stop?.();
    await srv?.stop();
  });

  async function create(name: string) {
    const request = newCsrPem({ cn: name });
    const r = await srv.client.post(CSRS, {
      metadata: { name },
      spec: { request: b64(request), signerName: 'example.com/s', usages: ['client auth'] },
    });
    assert.equal(r.status, 201, r.text);
    return request;
  }
  async function condition(name: string, type: string, subresource: 'approval' | 'status') {
    const csr = (await srv.client.get(`${CSRS}/${name}`)).body;
    csr.status.conditions = [...(csr.status.conditions ?? []), { type, status: 'True', reason: 'Test' }];
    const r = await srv.client.put(`${CSRS}/${name}/${subresource}`, csr);
    assert.equal(r.status, 200, r.text);
  }
  async function issue(name: string, request: string, ttlMs: number) {
    const csr = (await srv.client.get(`${CSRS}/${name}`)).body;
    const pem = ca.sign(parseCertificateRequestPem(request), {
      ttlMs,
      usages: ['client auth'],
      backdateMs: 0,
      shortMs: 8 * HOUR,
      now: new Date(),
    });
    csr.status.certificate = b64(pem);
    const r = await srv.client.put(`${CSRS}/${name}/status`, csr);
    assert.equal(r.status, 200, r.text);
  }
  const names = async () =>
    ((await srv.client.get(CSRS)).body.items as { metadata: { name: string } }[]).map((c) => c.metadata.name).sort();

  it('deletes each request at its age', async () => {
    await create('pending');
    await create('denied');
    await condition('denied', 'Denied', 'approval');
    await create('failed');
    await condition('failed', 'Failed', 'status');
    await create('approved-unissued');
    await condition('approved-unissued', 'Approved', 'approval');
    const issued = await create('issued');
    await condition('issued', 'Approved', 'approval');
    await issue('issued', issued, 365 * 24 * HOUR);
    const short = await create('issued-short');
    await condition('issued-short', 'Approved', 'approval');
    await issue('issued-short', short, 10 * MINUTE);

    const ctx = newTestControllerContext(srv.kubeconfig);
    const cleaner = new CsrCleaner(ctx, { pollIntervalMs: 100, now: () => new Date(Date.now() + offsetMs) });
    stop = ctx.start();
    running = cleaner.run(abort.signal);
    const all = ['approved-unissued', 'denied', 'failed', 'issued', 'issued-short', 'pending'];
    const settle = () => new Promise((r) => setTimeout(r, 400));
    await settle();
    assert.deepEqual(await names(), all);

    offsetMs = 30 * MINUTE; // the 10-minute certificate has expired
    await eventually('issued-short deleted', async () => !(await names()).includes('issued-short'));
    await settle();
    assert.deepEqual(await names(), ['approved-unissued', 'denied', 'failed', 'issued', 'pending']);

    offsetMs = 2 * HOUR; // issued, denied and failed are past their hour
    await eventually('hour-old requests deleted', async () => (await names()).length === 2);
    await settle();
    assert.deepEqual(await names(), ['approved-unissued', 'pending']);

    offsetMs = 25 * HOUR; // pending past its day; approved but never issued stays
    await eventually('pending deleted', async () => (await names()).length === 1);
    await settle();
    assert.deepEqual(await names(), ['approved-unissued']);
  });
});
