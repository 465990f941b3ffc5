/** spec.request of a CertificateSigningRequest: a PEM PKCS#10 request whose signature verifies. */
import { CertificateRequestError, parseCertificateRequestPem } from '../../api/certificates/pkcs10.js';

/** Why spec.request (the decoded bytes) is not a valid, correctly signed request; undefined when it is. */
export function csrRequestError(request: Buffer): string | undefined {
  try {
    parseCertificateRequestPem(request);
    return undefined;
  } catch (err) {
    if (err instanceof CertificateRequestError) return err.message;
    throw err;
  }
}
