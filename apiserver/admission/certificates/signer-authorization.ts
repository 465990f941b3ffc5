/**
 * Whether a user may `verb` (approve, sign) requests of a signer (Kubernetes'
 * IsAuthorizedForSignerName): allowed on the resource `signers` of the certificates group named
 * `<signerName>`, or else named `<domain>/*` for the signer's domain.
 */
import type { ApiDomain } from '../../api/domain.js';
import type { UserInfo } from '../../api/user-info.js';
import type { Attributes, Authorizer } from '../../authorization/interfaces.js';

function signerAttributes(domain: ApiDomain, user: UserInfo, verb: string, name: string): Attributes {
  return {
    user,
    verb,
    resourceRequest: true,
    apiGroup: domain.group('certificates.k8s.io'),
    apiVersion: '*',
    resource: 'signers',
    subresource: '',
    namespace: '',
    name,
    path: '',
  };
}

export async function isAuthorizedForSignerName(
  authorizer: Authorizer,
  domain: ApiDomain,
  user: UserInfo,
  verb: string,
  signerName: string,
): Promise<boolean> {
  const exact = await authorizer.authorize(signerAttributes(domain, user, verb, signerName));
  if (exact.decision === 'Allow') return true;
  const wildcard = await authorizer.authorize(signerAttributes(domain, user, verb, `${signerName.split('/')[0]}/*`));
  return wildcard.decision === 'Allow';
}
