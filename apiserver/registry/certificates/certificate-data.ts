/**
 * status.certificate of a CertificateSigningRequest (Kubernetes' validateCertificate): one or more PEM
 * CERTIFICATE blocks without headers, each an X.509 certificate.
 */
import { X509Certificate } from 'node:crypto';
import { goQuote } from '../../api/field-errors.js';
import { decodePemBlocks } from '../../api/certificates/pem.js';

/** Why the certificate data is not acceptable; undefined when it is (or is empty). */
export function certificateDataError(data: Buffer): string | undefined {
  if (data.length === 0) return undefined;
  const blocks = decodePemBlocks(data.toString('latin1'));
  if (blocks.length === 0) return 'must contain at least one CERTIFICATE PEM block';
  for (const block of blocks) {
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${goQuote(block.type)}`;
    if (Object.keys(block.headers).length > 0) return 'no PEM block headers are permitted';
    try {
      new X509Certificate(block.bytes);
    } catch {
      return 'x509: malformed certificate';
    }
  }
  return undefined;
}
