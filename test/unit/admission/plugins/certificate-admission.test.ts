/**
 * The certificate admission plugins with a rule-based authorizer: approve and sign on `signers` (by
 * name or the domain's `/*`), and no system:masters through the API server client signer.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { newResourceTable } from '../../../../apiserver/api/resource-table.js';
import type { Attributes, Authorizer } from '../../../../apiserver/authorization/interfaces.js';
import type { AdmissionAttributes, Operation } from '../../../../apiserver/admission/interfaces.js';
import { newCertificateApproval } from '../../../../apiserver/admission/plugins/certificate-approval.js';
import { newCertificateSigning } from '../../../../apiserver/admission/plugins/certificate-signing.js';
import { newCertificateSubjectRestriction } from '../../../../apiserver/admission/plugins/certificate-subject-restriction.js';
import { allResources } from '../../../../apiserver/registry/resources/index.js';
import { newAdmissionRollback } from '../../../../apiserver/registry/generic/write-admission.js';
import { b64, newCsrPem } from '../../../support/csr-fixture.js';

const domain = newApiDomain();
const csrDef = newResourceTable(domain, allResources).lookup('certificates.orch.io', 'v1', 'certificatesigningrequests')!;
const user = { name: 'carol', groups: ['system:authenticated'] };

/** Allows `user verb signers/name` for the listed names; records every question. */
function authorizer(allowed: string[]): Authorizer & { asked: Attributes[] } {
  const asked: Attributes[] = [];
  return {
    asked,
    async authorize(a) {
      asked.push(a);
      return { decision: allowed.includes(`${a.verb} ${a.resource}/${a.name}`) ? 'Allow' : 'NoOpinion', reason: '' };
    },
  };
}

const csr = (signerName: string, status: Record<string, unknown> = {}, request = newCsrPem()): ApiObject => ({
  metadata: { name: 'req' },
  spec: { request: b64(request), signerName, usages: ['client auth'] },
  status,
});

const attrs = (operation: Operation, subresource: string, object: ApiObject, oldObject?: ApiObject): AdmissionAttributes => ({
  operation,
  resource: csrDef,
  subresource,
  namespace: '',
  name: 'req',
  object,
  oldObject,
  user,
  dryRun: false,
  warnings: [],
  rollback: newAdmissionRollback(),
});

const forbidden = (message: string) => (err: unknown) => {
  const e = err as { status?: { reason?: string; code?: number; message?: string } };
  assert.equal(e.status?.reason, 'Forbidden');
  assert.equal(e.status?.code, 403);
  assert.equal(e.status?.message, message);
  return true;
};

describe('CertificateApproval', () => {
  const approved = { conditions: [{ type: 'Approved', status: 'True' }] };

  it('needs approve on the signer by name or by its domain', async () => {
    const byName = authorizer(['approve signers/example.com/a']);
    await newCertificateApproval(domain, byName).validate(
      attrs('UPDATE', 'approval', csr('example.com/a', approved), csr('example.com/a')),
    );
    assert.deepEqual(
      { ...byName.asked[0], user: undefined },
      {
        user: undefined,
        verb: 'approve',
        resourceRequest: true,
        apiGroup: 'certificates.orch.io',
        apiVersion: '*',
        resource: 'signers',
        subresource: '',
        namespace: '',
        name: 'example.com/a',
        path: '',
      },
    );
    const byDomain = authorizer(['approve signers/example.com/*']);
    await newCertificateApproval(domain, byDomain).validate(
      attrs('UPDATE', 'approval', csr('example.com/b', approved), csr('example.com/b')),
    );
    assert.deepEqual(
      byDomain.asked.map((a) => a.name),
      ['example.com/b', 'example.com/*'],
    );
  });

  it('refuses others with 403', async () => {
    await assert.rejects(
      newCertificateApproval(domain, authorizer(['approve signers/other.com/*', 'sign signers/example.com/a'])).validate(
        attrs('UPDATE', 'approval', csr('example.com/a', approved), csr('example.com/a')),
      ),
      forbidden(
        'certificatesigningrequests.certificates.orch.io "req" is forbidden: user not permitted to approve requests with signerName "example.com/a"',
      ),
    );
  });

  it('looks only at the approval subresource', async () => {
    const none = authorizer([]);
    await newCertificateApproval(domain, none).validate(attrs('UPDATE', 'status', csr('example.com/a', approved), csr('example.com/a')));
    await newCertificateApproval(domain, none).validate(attrs('UPDATE', '', csr('example.com/a'), csr('example.com/a')));
    assert.equal(none.asked.length, 0);
  });
});

describe('CertificateSigning', () => {
  const issued = { certificate: 'Y2VydA==' };

  it('needs sign on the signer when status changes the certificate or conditions', async () => {
    const ok = authorizer(['sign signers/example.com/a']);
    await newCertificateSigning(domain, ok).validate(attrs('UPDATE', 'status', csr('example.com/a', issued), csr('example.com/a')));
    await assert.rejects(
      newCertificateSigning(domain, authorizer(['approve signers/example.com/a'])).validate(
        attrs('UPDATE', 'status', csr('example.com/a', { conditions: [{ type: 'Failed', status: 'True' }] }), csr('example.com/a')),
      ),
      forbidden(
        'certificatesigningrequests.certificates.orch.io "req" is forbidden: user not permitted to sign requests with signerName "example.com/a"',
      ),
    );
  });

  it('asks nothing when status keeps the certificate and conditions', async () => {
    const none = authorizer([]);
    await newCertificateSigning(domain, none).validate(
      attrs('UPDATE', 'status', csr('example.com/a', issued), csr('example.com/a', issued)),
    );
    assert.equal(none.asked.length, 0);
  });
});

describe('CertificateSubjectRestriction', () => {
  const plugin = newCertificateSubjectRestriction(domain);
  const masters = newCsrPem({ cn: 'eve', orgs: ['system:masters'] });

  it('refuses system:masters through the API server client signer', async () => {
    await assert.rejects(
      plugin.validate(attrs('CREATE', '', csr('orch.io/orch-apiserver-client', {}, masters))),
      forbidden(
        'certificatesigningrequests.certificates.orch.io "req" is forbidden: use of orch.io/orch-apiserver-client signer with system:masters group is not allowed',
      ),
    );
  });

  it('allows it through other signers, and other groups through that one', async () => {
    await plugin.validate(attrs('CREATE', '', csr('example.com/a', {}, masters)));
    await plugin.validate(attrs('CREATE', '', csr('orch.io/orch-apiserver-client', {}, newCsrPem({ orgs: ['devs'] }))));
  });

  it("uses Kubernetes' signer name under k8s.io", async () => {
    const kube = newApiDomain('k8s.io');
    const def = newResourceTable(kube, allResources).lookup('certificates.k8s.io', 'v1', 'certificatesigningrequests')!;
    await assert.rejects(
      newCertificateSubjectRestriction(kube).validate({
        ...attrs('CREATE', '', csr('kubernetes.io/kube-apiserver-client', {}, masters)),
        resource: def,
      }),
      /use of kubernetes.io\/kube-apiserver-client signer with system:masters group is not allowed/,
    );
  });
});
