/** certificates/v1 CertificateSigningRequest fields as the strategy reads them (JSON form: bytes in base64). */
import type { ApiObject } from '../../api/object.js';

export interface CsrCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface CertificateSigningRequest extends ApiObject {
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
  status?: {
    conditions?: CsrCondition[];
    certificate?: string;
  };
}

export const asCsr = (obj: ApiObject) => obj as CertificateSigningRequest;
