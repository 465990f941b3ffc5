/** CertificateSigningRequest facts its clients share: the resource name and what its conditions say. */
import { type ApiObject, asKind } from '../object.js';
import type { CertificateSigningRequest } from '../generated/types.js';

export const CSR_RESOURCE = 'certificatesigningrequests';

/** An object read from the certificates API as the generated type. */
export const asCsr = (obj: ApiObject) => asKind<CertificateSigningRequest>(obj);

/** A condition of `type` with status True. */
export const hasTrueCondition = (csr: CertificateSigningRequest, type: string) =>
  (csr.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');

/** Approved and not Denied (Kubernetes' IsCertificateRequestApproved). */
export const isApproved = (csr: CertificateSigningRequest) => hasTrueCondition(csr, 'Approved') && !hasTrueCondition(csr, 'Denied');
