/**
 * The CSR approving controller (kube-controller-manager's csrapproving, the SubjectAccessReview
 * approver): a pending node client request — the node client signer, O system:nodes, CN
 * system:node:<name>, client usages — is approved (reason AutoApproved, through /approval) when a
 * SubjectAccessReview allows its requester `create` on `certificatesigningrequests/selfnodeclient`
 * (renewal: the requester is the node the CN names) or `certificatesigningrequests/nodeclient`.
 * A recognized request the reviews do not allow is looked at again later, with backoff.
 */
import { asCsr, CSR_RESOURCE, hasTrueCondition } from '../../apiserver/api/certificates/csr.js';
import type { CertificateSigningRequest, SubjectAccessReview } from '../../apiserver/api/generated/types.js';
import { type CertificateRequest, parseCertificateRequestPem } from '../../apiserver/api/certificates/pkcs10.js';
import { builtInSigners } from '../../apiserver/api/certificates/signers.js';
import { type ApiObject, deepCopy } from '../../apiserver/api/object.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import { CertificateController, csrGvr } from '../certificates/certificate-controller.js';
import { nodeClientError } from '../csrsigning/signer-rules.js';
import { resourceOf } from '../client/api-client.js';

interface Recognizer {
  subresource: 'selfnodeclient' | 'nodeclient';
  recognize(csr: CertificateSigningRequest, req: CertificateRequest): boolean;
  message: string;
}

export class CsrApprovingController implements Controller {
  private readonly base: CertificateController;
  private readonly recognizers: Recognizer[];

  constructor(private readonly ctx: ControllerContext) {
    const nodeSigner = builtInSigners(ctx.domain).apiServerClientNode;
    const isNodeClient = (csr: CertificateSigningRequest, req: CertificateRequest) =>
      csr.spec?.signerName === nodeSigner && nodeClientError(req, csr.spec?.usages ?? []) === undefined;
    this.recognizers = [
      {
        subresource: 'selfnodeclient',
        recognize: (csr, req) => isNodeClient(csr, req) && csr.spec?.username === req.subject.commonName,
        message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
      },
      {
        subresource: 'nodeclient',
        recognize: isNodeClient,
        message: 'Auto approving kubelet client certificate after SubjectAccessReview.',
      },
    ];
    this.base = new CertificateController(ctx, {
      name: 'csrapproving',
      failure: 'approving a certificate signing request',
      handle: (obj, csr) => this.approve(obj, csr),
    });
  }

  run(signal: AbortSignal): Promise<void> {
    return this.base.run(signal);
  }

  sync(name: string): Promise<SyncResult | undefined> {
    return this.base.sync(name);
  }

  private async approve(obj: ApiObject, cached: CertificateSigningRequest): Promise<SyncResult | undefined> {
    if (hasTrueCondition(cached, 'Approved') || hasTrueCondition(cached, 'Denied')) return;
    const req = parseCertificateRequestPem(Buffer.from(cached.spec?.request ?? '', 'base64'));
    let recognized = false;
    for (const r of this.recognizers) {
      if (!r.recognize(cached, req)) continue;
      recognized = true;
      if (!(await this.allowed(cached, r.subresource))) continue;
      const copy = deepCopy(obj);
      const csr = asCsr(copy);
      const status = (csr.status ??= {});
      (status.conditions ??= []).push({ type: 'Approved', status: 'True', reason: 'AutoApproved', message: r.message });
      await this.ctx.client.resource(csrGvr(this.ctx)).update(copy, 'approval');
      return;
    }
    // Recognized but not (yet) allowed: RBAC may change, so look again with backoff.
    return recognized ? { requeueRateLimited: true } : undefined;
  }

  /** Whether a SubjectAccessReview allows the requester `create` on certificatesigningrequests/<subresource>. */
  private async allowed(csr: CertificateSigningRequest, subresource: string): Promise<boolean> {
    const group = this.ctx.domain.group('authorization.k8s.io');
    const spec = csr.spec ?? {};
    const review = await this.ctx.client.resource(resourceOf<SubjectAccessReview>(group, 'v1', 'subjectaccessreviews')).create({
      apiVersion: `${group}/v1`,
      kind: 'SubjectAccessReview',
      metadata: {},
      spec: {
        user: spec.username,
        uid: spec.uid,
        groups: spec.groups,
        extra: spec.extra,
        resourceAttributes: {
          group: this.ctx.domain.group('certificates.k8s.io'),
          resource: CSR_RESOURCE,
          subresource,
          verb: 'create',
          version: '*',
        },
      },
    });
    return review.status?.allowed === true;
  }
}
