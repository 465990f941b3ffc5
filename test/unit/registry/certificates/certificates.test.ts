import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import { errorMessage, fieldPath, type FieldError } from '../../../../apiserver/api/field-errors.js';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import type { StrategyContext } from '../../../../apiserver/api/strategy.js';
import { ensureCA } from '../../../../apiserver/component-base/certs/certs.js';
import {
  checkRequestSignature,
  parseCertificateRequest,
  parseCertificateRequestPem,
} from '../../../../apiserver/api/certificates/pkcs10.js';
import { csrRequestError } from '../../../../apiserver/registry/certificates/csr-request.js';
import { certificateDataError } from '../../../../apiserver/registry/certificates/certificate-data.js';
import { validateSignerName } from '../../../../apiserver/registry/certificates/signer-name.js';
import { csrApprovalStrategy, csrStatusStrategy, csrStrategy } from '../../../../apiserver/registry/certificates/strategy.js';
import { csrColumns } from '../../../../apiserver/registry/certificates/columns.js';
import { b64, newCsrPem, toPem } from '../../../support/csr-fixture.js';

const now = new Date('2024-05-01T10:00:00Z');
const ctx: StrategyContext = {
  domain: newApiDomain(),
  now,
  user: { name: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a'] } },
};
const messages = (errs: FieldError[]) => errs.map(errorMessage);
const signer = fieldPath('spec', 'signerName');

describe('spec.request', () => {
  for (const type of ['rsa', 'rsa-pss', 'ec', 'ec384', 'ed25519'] as const) {
    it(`accepts a ${type} request whose signature verifies, and refuses it tampered`, () => {
      assert.equal(csrRequestError(Buffer.from(newCsrPem({ type }))), undefined);
      const failure = {
        rsa: 'crypto/rsa: verification error',
        'rsa-pss': 'crypto/rsa: verification error',
        ec: 'x509: ECDSA verification failure',
        ec384: 'x509: ECDSA verification failure',
        ed25519: 'x509: Ed25519 verification failure',
      }[type];
      assert.equal(csrRequestError(Buffer.from(newCsrPem({ type, tamper: true }))), failure);
    });
  }

  it('needs a CERTIFICATE REQUEST PEM block holding a PKCS#10 structure', () => {
    assert.equal(csrRequestError(Buffer.from('not pem')), 'PEM block type must be CERTIFICATE REQUEST');
    assert.equal(csrRequestError(Buffer.from(toPem('CERTIFICATE', Buffer.from([0x30, 0])))), 'PEM block type must be CERTIFICATE REQUEST');
    assert.equal(
      csrRequestError(Buffer.from(toPem('CERTIFICATE REQUEST', Buffer.from([0x30, 0x05, 0x02])))),
      'asn1: syntax error: data truncated',
    );
    assert.equal(
      csrRequestError(Buffer.from(toPem('CERTIFICATE REQUEST', Buffer.from([0x04, 0x00])))),
      "asn1: structure error: tags don't match",
    );
  });

  it('reads the subject and the subjectAltNames of the extension request', () => {
    const req = parseCertificateRequestPem(
      newCsrPem({
        cn: 'système:node:a',
        orgs: ['system:nodes', 'ops'],
        dnsNames: ['a.example.com'],
        ipAddresses: ['10.0.0.1', '::1'],
        emailAddresses: ['a@example.com'],
        uris: ['spiffe://x/y'],
      }),
    );
    assert.deepEqual(req.subject, { commonName: 'système:node:a', organizations: ['system:nodes', 'ops'] });
    assert.deepEqual(req.dnsNames, ['a.example.com']);
    assert.deepEqual(req.ipAddresses, ['10.0.0.1', '::1']);
    assert.deepEqual(req.emailAddresses, ['a@example.com']);
    assert.deepEqual(req.uris, ['spiffe://x/y']);
    assert.equal(req.publicKey.asymmetricKeyType, 'ec');
  });

  it('refuses a key that does not fit the signature algorithm', () => {
    const ecRequest = Buffer.from(newCsrPem({ type: 'ec' }).split('\n').slice(1, -2).join(''), 'base64');
    const req = parseCertificateRequest(ecRequest);
    req.signatureAlgorithm = { oid: '1.2.840.113549.1.1.11' };
    assert.equal(
      checkRequestSignature(req),
      'x509: signature algorithm specifies an RSA public key, but have public key of type *ecdsa.PublicKey',
    );
    req.signatureAlgorithm = { oid: '1.2.3.4' };
    assert.equal(checkRequestSignature(req), 'x509: cannot verify signature: algorithm unimplemented');
  });

  it('finds the request after other text, as Go does', () => {
    assert.equal(csrRequestError(Buffer.from(`leading text\n${newCsrPem()}`)), undefined);
  });
});

describe('status.certificate data', () => {
  let dir: string;
  let caPem: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-csr-'));
    caPem = ensureCA(dir).certPem;
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('accepts one or more CERTIFICATE blocks', () => {
    assert.equal(certificateDataError(Buffer.alloc(0)), undefined);
    assert.equal(certificateDataError(Buffer.from(caPem + caPem)), undefined);
  });

  it('refuses other blocks, headers, garbage and nothing', () => {
    assert.equal(certificateDataError(Buffer.from('x')), 'must contain at least one CERTIFICATE PEM block');
    assert.equal(certificateDataError(Buffer.from(newCsrPem())), 'only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"');
    const withHeader = caPem.replace(/-----\r?\n/, '-----\nProc-Type: 4,ENCRYPTED\n\n');
    assert.equal(certificateDataError(Buffer.from(withHeader)), 'no PEM block headers are permitted');
    assert.equal(certificateDataError(Buffer.from(toPem('CERTIFICATE', Buffer.from('junk')))), 'x509: malformed certificate');
  });
});

describe('spec.signerName', () => {
  it('accepts domain/path names', () => {
    assert.deepEqual(validateSignerName(signer, 'example.com/my-signer.v1'), []);
  });

  it('refuses missing, unqualified and malformed names', () => {
    assert.deepEqual(messages(validateSignerName(signer, '')), ['spec.signerName: Required value']);
    assert.deepEqual(messages(validateSignerName(signer, 'a/b/c')), [
      'spec.signerName: Invalid value: "a/b/c": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
    ]);
    assert.deepEqual(messages(validateSignerName(signer, 'example/Bad')), [
      'spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots',
      "spec.signerName: Invalid value: \"Bad\": validating label \"Bad\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
    assert.deepEqual(messages(validateSignerName(signer, `${'a'.repeat(254)}.com/x`)).slice(0, 1), [
      'spec.signerName: Too long: may not be more than 253 bytes',
    ]);
  });
});

function csr(spec: Record<string, unknown> = {}, status?: Record<string, unknown>): ApiObject {
  const obj: ApiObject = {
    metadata: { name: 'c' },
    spec: { request: b64(newCsrPem()), signerName: 'example.com/signer', usages: ['client auth'], ...spec },
  };
  if (status) obj.status = status;
  return obj;
}

describe('CertificateSigningRequest strategy', () => {
  it('records the requesting user and starts without status', () => {
    const c = csr({ username: 'mallory', groups: ['system:masters'] }, { conditions: [{ type: 'Approved', status: 'True' }] });
    csrStrategy.prepareForCreate!(c, ctx);
    const spec = c.spec as Record<string, unknown>;
    assert.equal(spec.username, 'alice');
    assert.equal(spec.uid, 'u-1');
    assert.deepEqual(spec.groups, ['devs', 'system:authenticated']);
    assert.deepEqual(spec.extra, { scopes: ['a'] });
    assert.deepEqual(c.status, {});
    assert.deepEqual(csrStrategy.validate!(c, ctx), []);
  });

  it('validates usages, signer, expiration and request', () => {
    const c = csr({
      request: b64('nope'),
      usages: ['client auth', 'flying', 'client auth'],
      signerName: 'orch.io/legacy-unknown',
      expirationSeconds: 599,
    });
    assert.deepEqual(messages(csrStrategy.validate!(c, ctx)), [
      'spec.request: Invalid value: []byte{0x6e, 0x6f, 0x70, 0x65}: PEM block type must be CERTIFICATE REQUEST',
      'spec.usages[1]: Unsupported value: "flying": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"',
      'spec.usages[2]: Duplicate value: "client auth"',
      'spec.signerName: Invalid value: "orch.io/legacy-unknown": the legacy signerName is not allowed via this API version',
      'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)',
    ]);
    assert.deepEqual(messages(csrStrategy.validate!(csr({ usages: [] }), ctx)), ['spec.usages: Required value']);
  });

  it('keeps the spec on update', () => {
    const old = csr();
    const changed = csr({ signerName: 'example.com/other' });
    csrStrategy.prepareForUpdate!(changed, old, ctx);
    assert.deepEqual(changed.spec, old.spec);
  });

  it('/approval sets Approved or Denied, never both, never removed, with timestamps', () => {
    const old = csr({}, {});
    const approved = csrApprovalStrategy.prepareForUpdate(
      csr({ signerName: 'example.com/x' }, { conditions: [{ type: 'Approved', status: 'True' }], certificate: 'eA==' }),
      old,
      ctx,
    );
    assert.deepEqual(approved.spec, old.spec);
    assert.deepEqual(approved.status, {
      conditions: [
        { type: 'Approved', status: 'True', lastUpdateTime: '2024-05-01T10:00:00Z', lastTransitionTime: '2024-05-01T10:00:00Z' },
      ],
    });
    assert.deepEqual(csrApprovalStrategy.validateUpdate!(approved, old, ctx), []);
    const both = csrApprovalStrategy.prepareForUpdate(
      csr(
        {},
        {
          conditions: [
            { type: 'Approved', status: 'True' },
            { type: 'Denied', status: 'True' },
          ],
        },
      ),
      old,
      ctx,
    );
    assert.deepEqual(messages(csrApprovalStrategy.validateUpdate!(both, old, ctx)), [
      'status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
    ]);
    const removed = csrApprovalStrategy.prepareForUpdate(csr({}, {}), approved, ctx);
    assert.deepEqual(messages(csrApprovalStrategy.validateUpdate!(removed, approved, ctx)), [
      'status.conditions: Forbidden: updates may not remove a condition of type "Approved"',
    ]);
  });

  it('/status cannot approve, keeps stored approvals, and validates conditions and the certificate once', () => {
    const old = csr(
      {},
      {
        conditions: [
          {
            type: 'Approved',
            status: 'True',
            reason: 'ok',
            lastUpdateTime: '2024-01-01T00:00:00Z',
            lastTransitionTime: '2024-01-01T00:00:00Z',
          },
        ],
      },
    );
    const kept = csrStatusStrategy.prepareForUpdate(
      csr(
        {},
        {
          conditions: [
            { type: 'Approved', status: 'True', reason: 'changed' },
            { type: 'Failed', status: 'False' },
          ],
        },
      ),
      old,
      ctx,
    );
    assert.deepEqual((kept.status as { conditions: unknown[] }).conditions, [
      (old.status as { conditions: unknown[] }).conditions[0],
      { type: 'Failed', status: 'False', lastUpdateTime: '2024-05-01T10:00:00Z', lastTransitionTime: '2024-05-01T10:00:00Z' },
    ]);
    assert.deepEqual(messages(csrStatusStrategy.validateUpdate!(kept, old, ctx)), [
      'status.conditions[1].status: Unsupported value: "False": supported values: "True"',
    ]);
    const pending = csr({}, {});
    const denied = csrStatusStrategy.prepareForUpdate(
      csr(
        {},
        {
          conditions: [
            { type: 'Denied', status: 'True' },
            { type: '', status: 'Maybe' },
          ],
        },
      ),
      pending,
      ctx,
    );
    assert.deepEqual(messages(csrStatusStrategy.validateUpdate!(denied, pending, ctx)), [
      'status.conditions[1].type: Required value',
      'status.conditions[1].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      'status.conditions: Forbidden: updates may not add a condition of type "Denied"',
    ]);
    const issued = csrStatusStrategy.prepareForUpdate(csr({}, { certificate: b64('junk') }), pending, ctx);
    assert.deepEqual(messages(csrStatusStrategy.validateUpdate!(issued, pending, ctx)), [
      'status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
    ]);
    const reissued = csrStatusStrategy.prepareForUpdate(csr({}, { certificate: b64('other') }), issued, ctx);
    assert.deepEqual(messages(csrStatusStrategy.validateUpdate!(reissued, issued, ctx)), [
      'status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
      'status.certificate: Forbidden: updates may not modify existing certificate content',
    ]);
  });

  it('prints AGE, SIGNERNAME, REQUESTOR, REQUESTEDDURATION and CONDITION', () => {
    const c = csr(
      { username: 'alice', expirationSeconds: 3600 },
      { conditions: [{ type: 'Approved' }, { type: 'Failed' }], certificate: 'eA==' },
    );
    c.metadata.creationTimestamp = '2024-05-01T09:59:30Z';
    assert.deepEqual(
      csrColumns.map((col) => col.cell(c, now)),
      ['30s', 'example.com/signer', 'alice', '60m', 'Approved,Failed,Issued'],
    );
    const pending = csr({ signerName: undefined });
    assert.deepEqual(
      csrColumns.map((col) => col.cell(pending, now)),
      ['<unknown>', '<none>', '', '<none>', 'Pending'],
    );
  });
});
