/**
 * What each built-in signer accepts (Kubernetes' signer verification functions and the node CSR
 * helpers): an error message when a request breaks its signer's rules, undefined when it may be signed.
 */
import type { CertificateRequest } from '../../apiserver/api/certificates/pkcs10.js';
import { type BuiltInSigners, NODE_USER_PREFIX, NODES_GROUP } from '../../apiserver/api/certificates/signers.js';

export type SignerRule = (req: CertificateRequest, usages: readonly string[]) => string | undefined;

const sameSet = (a: readonly string[], b: readonly string[]) => new Set(a).size === b.length && b.every((x) => a.includes(x));
const onlyNodesOrg = (req: CertificateRequest) => req.subject.organizations.length === 1 && req.subject.organizations[0] === NODES_GROUP;

const NODE_CLIENT_USAGES = ['client auth', 'digital signature', 'key encipherment'];
const NODE_CLIENT_USAGES_NO_RSA = ['client auth', 'digital signature'];
const NODE_SERVING_USAGES = ['digital signature', 'key encipherment', 'server auth'];
const NODE_SERVING_USAGES_NO_RSA = ['digital signature', 'server auth'];

/** A node's client certificate: O system:nodes only, CN system:node:…, no SANs, client usages. */
export function nodeClientError(req: CertificateRequest, usages: readonly string[]): string | undefined {
  if (!onlyNodesOrg(req)) return `subject organization is not ${NODES_GROUP}`;
  if (req.dnsNames.length > 0) return 'DNS subjectAltNames are not allowed';
  if (req.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.ipAddresses.length > 0) return 'IP subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!req.subject.commonName.startsWith(NODE_USER_PREFIX)) return `subject common name does not begin with ${NODE_USER_PREFIX}`;
  if (!sameSet(usages, NODE_CLIENT_USAGES) && !sameSet(usages, NODE_CLIENT_USAGES_NO_RSA))
    return `usages did not match [${NODE_CLIENT_USAGES.join(' ')}]`;
  return undefined;
}

/** A node's serving certificate: O system:nodes only, DNS or IP SANs, no email/URI, serving usages, CN system:node:…. */
export function nodeServingError(req: CertificateRequest, usages: readonly string[]): string | undefined {
  if (!onlyNodesOrg(req)) return `subject organization is not ${NODES_GROUP}`;
  if (req.dnsNames.length === 0 && req.ipAddresses.length === 0) return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!sameSet(usages, NODE_SERVING_USAGES) && !sameSet(usages, NODE_SERVING_USAGES_NO_RSA))
    return `usages did not match [${NODE_SERVING_USAGES.join(' ')}]`;
  if (!req.subject.commonName.startsWith(NODE_USER_PREFIX)) return `subject common name does not begin with ${NODE_USER_PREFIX}`;
  return undefined;
}

/** An API server client certificate: any subject; client auth required, digital signature and key encipherment allowed. */
export function apiServerClientError(_req: CertificateRequest, usages: readonly string[]): string | undefined {
  for (const u of usages) {
    if (u !== 'digital signature' && u !== 'key encipherment' && u !== 'client auth') return `invalid usage for client certificate: ${u}`;
  }
  if (!usages.includes('client auth')) return 'missing required usage for client certificate: client auth';
  return undefined;
}

/** Each built-in signer's rule, keyed by its name under the domain. */
export function signerRules(signers: BuiltInSigners): Map<string, SignerRule> {
  return new Map<string, SignerRule>([
    [signers.apiServerClient, apiServerClientError],
    [signers.apiServerClientNode, nodeClientError],
    [signers.nodeServing, nodeServingError],
    [signers.legacyUnknown, () => undefined], // no restrictions, for compatibility
  ]);
}
