import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { CsrApprovingController } from '../../../../controllers/csrapproving/csr-approving-controller.js';
import { csrGvr } from '../../../../controllers/certificates/certificate-controller.js';
import { b64, newCsrPem } from '../../../support/csr-fixture.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const USAGES = ['digital signature', 'key encipherment', 'client auth'];

function csr(username: string, groups: string[]): ApiObject {
  return {
    apiVersion: 'certificates.orch.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'req', uid: 'csr-uid', resourceVersion: '3' },
    spec: {
      request: b64(newCsrPem({ cn: 'system:node:n1', orgs: ['system:nodes'] })),
      signerName: 'orch.io/orch-apiserver-client-orchlet',
      usages: USAGES,
      username,
      uid: 'user-uid',
      groups,
      extra: { scope: ['a'] },
    },
  };
}

describe('csr approving controller: the SubjectAccessReviews it asks', () => {
  it('asks whether the requester may create certificatesigningrequests/nodeclient, then approves', async () => {
    const ctx = newFakeContext();
    const c = new CsrApprovingController(ctx);
    ctx.fake.on((req) =>
      req.method === 'POST' && req.path.endsWith('/subjectaccessreviews') ? { ...req.body, status: { allowed: true } } : undefined,
    );
    ctx.cache(csrGvr(ctx), csr('system:bootstrap:abcdef', ['system:bootstrappers', 'system:authenticated']));
    await c.sync('req');
    const [review] = ctx.fake.made('POST', '/apis/authorization.orch.io/v1/subjectaccessreviews');
    assert.deepEqual(review.body.spec, {
      user: 'system:bootstrap:abcdef',
      uid: 'user-uid',
      groups: ['system:bootstrappers', 'system:authenticated'],
      extra: { scope: ['a'] },
      resourceAttributes: {
        group: 'certificates.orch.io',
        resource: 'certificatesigningrequests',
        subresource: 'nodeclient',
        verb: 'create',
        version: '*',
      },
    });
    const [approval] = ctx.fake.made('PUT', '/certificatesigningrequests/req/approval');
    assert.deepEqual(
      approval.body.status.conditions.map((x: { type: string; reason: string }) => [x.type, x.reason]),
      [['Approved', 'AutoApproved']],
    );
  });

  it("a node's request for its own name asks selfnodeclient first, then nodeclient; denied both, it retries later", async () => {
    const ctx = newFakeContext();
    const c = new CsrApprovingController(ctx);
    ctx.fake.on((req) =>
      req.method === 'POST' && req.path.endsWith('/subjectaccessreviews') ? { ...req.body, status: { allowed: false } } : undefined,
    );
    ctx.cache(csrGvr(ctx), csr('system:node:n1', ['system:nodes', 'system:authenticated']));
    const result = await c.sync('req');
    assert.deepEqual(
      ctx.fake.made('POST', '/subjectaccessreviews').map((r) => r.body.spec.resourceAttributes.subresource),
      ['selfnodeclient', 'nodeclient'],
    );
    assert.deepEqual(result, { requeueRateLimited: true });
    assert.equal(ctx.fake.made('PUT').length, 0);
  });
});
