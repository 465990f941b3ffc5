/**
 * The detached JWS Kubernetes' bootstrap signer puts beside cluster-info's kubeconfig: HS256 over
 * the content, keyed by the token secret, the token id as `kid`; the payload part left empty
 * (`<header>..<signature>`), as go-jose's compact form with the content stripped.
 */
import { createHmac } from 'node:crypto';

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

export function computeDetachedSignature(content: string, tokenId: string, tokenSecret: string): string {
  const header = b64url(JSON.stringify({ alg: 'HS256', kid: tokenId }));
  const signature = createHmac('sha256', tokenSecret)
    .update(`${header}.${b64url(content)}`)
    .digest();
  return `${header}..${b64url(signature)}`;
}
