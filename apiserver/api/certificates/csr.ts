/** certificates/v1 CertificateSigningRequest as its clients read it (bytes in base64), and its condition facts. */
import type { ApiObject } from '../object.js';

export interface CsrCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface CsrObject extends ApiObject {
  spec?: {
    request?: string;
    signerName?: string;
    expirationSeconds?: number;
    usages?: string[];
    username?: string;
    uid?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
  };
  status?: { conditions?: CsrCondition[]; certificate?: string };
}

export const CSR_RESOURCE = 'certificatesigningrequests';

/** A condition of `type` with status True. */
export const hasTrueCondition = (csr: CsrObject, type: string) =>
  (csr.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');

/** Approved and not Denied (Kubernetes' IsCertificateRequestApproved). */
export const isApproved = (csr: CsrObject) => hasTrueCondition(csr, 'Approved') && !hasTrueCondition(csr, 'Denied');
