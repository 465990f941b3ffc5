import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type CertificateRequest, parseCertificateRequestPem } from '../../../../apiserver/api/certificates/pkcs10.js';
import { builtInSigners } from '../../../../apiserver/api/certificates/signers.js';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import { signerRules } from '../../../../controllers/csrsigning/signer-rules.js';
import { certificateLifetimeMs } from '../../../../controllers/csrsigning/csr-signing-controller.js';
import { type CsrOptions, newCsrPem } from '../../../support/csr-fixture.js';

const signers = builtInSigners(newApiDomain());
const rules = signerRules(signers);
const node = { cn: 'system:node:n1', orgs: ['system:nodes'] };
const req = (opts: CsrOptions): CertificateRequest => parseCertificateRequestPem(newCsrPem(opts));
const check = (signer: string, opts: CsrOptions, usages: string[]) => rules.get(signer)!(req(opts), usages);

describe('signer rules', () => {
  const client = ['digital signature', 'key encipherment', 'client auth'];
  const serving = ['digital signature', 'key encipherment', 'server auth'];

  it('node client: O system:nodes only, CN system:node:, no SANs, client usages with or without key encipherment', () => {
    const s = signers.apiServerClientNode;
    assert.equal(check(s, node, client), undefined);
    assert.equal(check(s, node, ['client auth', 'digital signature']), undefined);
    assert.equal(check(s, { ...node, orgs: ['system:nodes', 'x'] }, client), 'subject organization is not system:nodes');
    assert.equal(check(s, { ...node, orgs: [] }, client), 'subject organization is not system:nodes');
    assert.equal(check(s, { ...node, dnsNames: ['a'] }, client), 'DNS subjectAltNames are not allowed');
    assert.equal(check(s, { ...node, emailAddresses: ['a@b'] }, client), 'Email subjectAltNames are not allowed');
    assert.equal(check(s, { ...node, ipAddresses: ['1.2.3.4'] }, client), 'IP subjectAltNames are not allowed');
    assert.equal(check(s, { ...node, uris: ['x://y'] }, client), 'URI subjectAltNames are not allowed');
    assert.equal(check(s, { ...node, cn: 'alice' }, client), 'subject common name does not begin with system:node:');
    assert.equal(check(s, node, ['client auth']), 'usages did not match [client auth digital signature key encipherment]');
    assert.equal(check(s, node, [...client, 'server auth']), 'usages did not match [client auth digital signature key encipherment]');
  });

  it('node serving: O system:nodes, a DNS or IP SAN, no email/URI, serving usages, CN system:node:', () => {
    const s = signers.nodeServing;
    const withSan = { ...node, dnsNames: ['n1.local'] };
    assert.equal(check(s, withSan, serving), undefined);
    assert.equal(check(s, { ...node, ipAddresses: ['10.0.0.9'] }, ['digital signature', 'server auth']), undefined);
    assert.equal(check(s, { ...withSan, orgs: ['x'] }, serving), 'subject organization is not system:nodes');
    assert.equal(check(s, node, serving), 'DNS or IP subjectAltName is required');
    assert.equal(check(s, { ...withSan, emailAddresses: ['a@b'] }, serving), 'Email subjectAltNames are not allowed');
    assert.equal(check(s, { ...withSan, uris: ['x://y'] }, serving), 'URI subjectAltNames are not allowed');
    assert.equal(check(s, withSan, client), 'usages did not match [digital signature key encipherment server auth]');
    assert.equal(check(s, { ...withSan, cn: 'n1' }, serving), 'subject common name does not begin with system:node:');
  });

  it('API server client: any subject, client auth required, only digital signature and key encipherment besides', () => {
    const s = signers.apiServerClient;
    assert.equal(check(s, { cn: 'alice', orgs: ['devs'], dnsNames: ['x'] }, ['client auth']), undefined);
    assert.equal(check(s, { cn: 'alice' }, client), undefined);
    assert.equal(check(s, { cn: 'alice' }, ['digital signature']), 'missing required usage for client certificate: client auth');
    assert.equal(check(s, { cn: 'alice' }, ['client auth', 'server auth']), 'invalid usage for client certificate: server auth');
  });

  it('legacy-unknown: anything', () => {
    assert.equal(check(signers.legacyUnknown, { cn: 'x' }, ['server auth', 'code signing']), undefined);
  });

  it('a certificate lives min(--cluster-signing-duration, expirationSeconds), at least 10 minutes', () => {
    const year = 365 * 24 * 3_600_000;
    assert.equal(certificateLifetimeMs(year, undefined), year);
    assert.equal(certificateLifetimeMs(year, 3600), 3_600_000);
    assert.equal(certificateLifetimeMs(3_600_000, 7200), 3_600_000);
    assert.equal(certificateLifetimeMs(year, 60), 600_000);
  });
});
