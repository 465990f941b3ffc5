/**
 * certificates.orch.io/v1 CertificateSigningRequest over HTTP: the requestor taken from the request's
 * user, spec and status fixed on create, the 422 causes of bad requests, /approval and /status rules,
 * and the table kubectl prints.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import type { TestClient } from '../../support/http-client.js';
import { b64, newCsrPem } from '../../support/csr-fixture.js';

const CSRS = '/apis/certificates.orch.io/v1/certificatesigningrequests';
const MERGE = 'application/merge-patch+json';
const SIGNER = 'example.com/node-client';

const csr = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'certificates.orch.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  spec: {
    request: b64(newCsrPem({ cn: `system:node:${name}` })),
    signerName: SIGNER,
    usages: ['digital signature', 'client auth'],
    ...spec,
  },
});

const condition = (type: string, extra: Record<string, unknown> = {}) => ({
  type,
  status: 'True',
  reason: `${type}ByTest`,
  message: 'test',
  ...extra,
});

describe('certificates.orch.io/v1 CertificateSigningRequest', () => {
  let s: TestServer;
  let c: TestClient;
  before(async () => {
    s = await startTestServer();
    c = s.client;
  });
  after(() => s?.stop());

  it('is discovered with its status and approval subresources', async () => {
    const r = await c.get('/apis/certificates.orch.io/v1');
    const byName = Object.fromEntries(r.body.resources.map((x: any) => [x.name, x]));
    assert.deepEqual(byName.certificatesigningrequests.shortNames, ['csr']);
    assert.equal(byName.certificatesigningrequests.namespaced, false);
    assert.deepEqual(byName['certificatesigningrequests/approval'].verbs, ['get', 'patch', 'update']);
    assert.deepEqual(byName['certificatesigningrequests/status'].verbs, ['get', 'patch', 'update']);
  });

  it('records the requesting user, whatever the body says, and starts with an empty status', async () => {
    const body = csr('node-1', {
      username: 'mallory',
      uid: 'x',
      groups: ['system:masters-not'],
      extra: { a: ['b'] },
      expirationSeconds: 3600,
    });
    const r = await c.post(CSRS, { ...body, status: { conditions: [condition('Approved')], certificate: b64('x') } });
    assert.equal(r.status, 201, r.text);
    const { request: _r, ...spec } = r.body.spec;
    assert.deepEqual(spec, {
      signerName: SIGNER,
      usages: ['digital signature', 'client auth'],
      expirationSeconds: 3600,
      username: 'admin',
      uid: 'admin',
      groups: ['system:masters', 'system:authenticated'],
    });
    assert.deepEqual(r.body.status, {});
    for (const type of ['rsa', 'ed25519'] as const) {
      const other = await c.post(CSRS, { ...csr(`node-${type}`), spec: { ...csr('x').spec, request: b64(newCsrPem({ type })) } });
      assert.equal(other.status, 201, other.text);
    }
  });

  it('refuses system:masters through the API server client signer (403, CertificateSubjectRestriction)', async () => {
    const masters = b64(newCsrPem({ cn: 'eve', orgs: ['system:masters'] }));
    const r = await c.post(CSRS, csr('eve', { request: masters, signerName: 'orch.io/orch-apiserver-client', usages: ['client auth'] }));
    assert.equal(r.status, 403, r.text);
    assert.match(r.body.message, /use of orch.io\/orch-apiserver-client signer with system:masters group is not allowed/);
    const other = await c.post(CSRS, csr('eve2', { request: masters, signerName: 'example.com/x', usages: ['client auth'] }));
    assert.equal(other.status, 201, other.text);
  });

  it('refuses bad requests, usages, signers and durations (422 with causes)', async () => {
    const tampered = b64(newCsrPem({ tamper: true }));
    const r = await c.post(
      CSRS,
      csr('bad', {
        request: tampered,
        usages: ['client auth', 'teleport', 'client auth'],
        signerName: 'orch.io/legacy-unknown',
        expirationSeconds: 60,
      }),
    );
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.details.kind, 'CertificateSigningRequest');
    assert.equal(r.body.details.group, 'certificates.orch.io');
    assert.deepEqual(
      r.body.details.causes.map((x: any) => [x.reason, x.field]),
      [
        ['FieldValueInvalid', 'spec.request'],
        ['FieldValueNotSupported', 'spec.usages[1]'],
        ['FieldValueDuplicate', 'spec.usages[2]'],
        ['FieldValueInvalid', 'spec.signerName'],
        ['FieldValueInvalid', 'spec.expirationSeconds'],
      ],
    );
    const messages = r.body.details.causes.map((x: any) => x.message);
    // The request is []byte in Kubernetes, printed as Go's %#v.
    const requestBytes = [...Buffer.from(tampered, 'base64')].map((b) => `0x${b.toString(16)}`).join(', ');
    assert.equal(messages[0], `Invalid value: []byte{${requestBytes}}: x509: ECDSA verification failure`);
    assert.match(messages[1], /^Unsupported value: "teleport": supported values: "any", "cert sign", /);
    assert.equal(messages[2], 'Duplicate value: "client auth"');
    assert.equal(messages[3], 'Invalid value: "orch.io/legacy-unknown": the legacy signerName is not allowed via this API version');
    assert.equal(messages[4], 'Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)');

    const empty = await c.post(CSRS, { metadata: { name: 'empty' }, spec: {} });
    assert.equal(empty.status, 422, empty.text);
    assert.deepEqual(empty.body.details.causes, [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: []byte(nil): PEM block type must be CERTIFICATE REQUEST',
        field: 'spec.request',
      },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.usages' },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.signerName' },
    ]);
    const notBase64 = await c.post(CSRS, csr('nb', { request: 'not base64!' }));
    assert.equal(notBase64.status, 400, notBase64.text);
  });

  it('keeps spec and status as they are on updates of the main resource', async () => {
    const cur = (await c.get(`${CSRS}/node-1`)).body;
    const r = await c.put(`${CSRS}/node-1`, {
      ...cur,
      metadata: { ...cur.metadata, labels: { node: 'node-1' } },
      spec: { ...cur.spec, signerName: 'example.com/other', usages: ['server auth'] },
      status: { conditions: [condition('Approved')] },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.spec, cur.spec);
    assert.deepEqual(r.body.status, {});
    assert.deepEqual(r.body.metadata.labels, { node: 'node-1' });
  });

  it('does not approve through /status', async () => {
    const r = await c.patch(`${CSRS}/node-1/status`, { status: { conditions: [condition('Approved')] } }, MERGE);
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(r.body.details.causes, [
      {
        reason: 'FieldValueForbidden',
        message: 'Forbidden: updates may not add a condition of type "Approved"',
        field: 'status.conditions',
      },
    ]);
  });

  it('approves through /approval, with timestamps, and never Approved and Denied together', async () => {
    const both = await c.patch(`${CSRS}/node-1/approval`, { status: { conditions: [condition('Approved'), condition('Denied')] } }, MERGE);
    assert.equal(both.status, 422, both.text);
    assert.deepEqual(both.body.details.causes, [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
        field: 'status.conditions[1].type',
      },
    ]);
    const cur = (await c.get(`${CSRS}/node-1`)).body;
    const r = await c.put(`${CSRS}/node-1/approval`, {
      ...cur,
      spec: { ...cur.spec, usages: ['any'] },
      status: { conditions: [condition('Approved')], certificate: b64('x') },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.spec, cur.spec);
    const [approved] = r.body.status.conditions;
    assert.equal(r.body.status.certificate, undefined);
    assert.deepEqual(
      { ...approved, lastUpdateTime: undefined, lastTransitionTime: undefined },
      { ...condition('Approved'), lastUpdateTime: undefined, lastTransitionTime: undefined },
    );
    assert.match(approved.lastUpdateTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(approved.lastTransitionTime, approved.lastUpdateTime);
    const removed = await c.put(`${CSRS}/node-1/approval`, { ...r.body, status: { conditions: [] } });
    assert.equal(removed.status, 422, removed.text);
    assert.deepEqual(removed.body.details.causes, [
      {
        reason: 'FieldValueForbidden',
        message: 'Forbidden: updates may not remove a condition of type "Approved"',
        field: 'status.conditions',
      },
    ]);
  });

  it('issues the certificate through /status once, and keeps the approval', async () => {
    const bad = await c.patch(`${CSRS}/node-1/status`, { status: { certificate: b64(newCsrPem()) } }, MERGE);
    assert.equal(bad.status, 422, bad.text);
    assert.deepEqual(bad.body.details.causes, [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "<certificate data>": only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"',
        field: 'status.certificate',
      },
    ]);
    const cert = b64(s.ca);
    const issued = await c.patch(`${CSRS}/node-1/status`, { status: { certificate: cert } }, MERGE);
    assert.equal(issued.status, 200, issued.text);
    assert.equal(issued.body.status.certificate, cert);
    assert.deepEqual(
      issued.body.status.conditions.map((x: any) => x.type),
      ['Approved'],
    );
    const again = await c.patch(`${CSRS}/node-1/status`, { status: { certificate: b64(s.ca + s.ca) } }, MERGE);
    assert.equal(again.status, 422, again.text);
    assert.deepEqual(again.body.details.causes, [
      {
        reason: 'FieldValueForbidden',
        message: 'Forbidden: updates may not modify existing certificate content',
        field: 'status.certificate',
      },
    ]);
  });

  it('prints AGE, SIGNERNAME, REQUESTOR, REQUESTEDDURATION and CONDITION', async () => {
    const r = await c.request('GET', `${CSRS}/node-1`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.orch.io' } });
    assert.deepEqual(
      r.body.columnDefinitions.map((d: any) => d.name),
      ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition'],
    );
    const [name, , signer, requestor, duration, cond] = r.body.rows[0].cells;
    assert.deepEqual([name, signer, requestor, duration, cond], ['node-1', SIGNER, 'admin', '60m', 'Approved,Issued']);
  });
});
