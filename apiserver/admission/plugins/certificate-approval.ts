/**
 * CertificateApproval: an update of certificatesigningrequests/approval needs the `approve` verb on
 * the request's signer (`signers`, named for it or for its domain's `/*`), else 403.
 */
import { asCsr } from '../../api/certificates/csr.js';
import type { ApiDomain } from '../../api/domain.js';
import * as status from '../../api/status.js';
import type { Authorizer } from '../../authorization/interfaces.js';
import { isAuthorizedForSignerName } from '../certificates/signer-authorization.js';
import type { ValidatingPlugin } from '../interfaces.js';

export function newCertificateApproval(domain: ApiDomain, authorizer: Authorizer): ValidatingPlugin {
  const group = domain.group('certificates.k8s.io');
  return {
    name: 'CertificateApproval',
    handles: (op) => op === 'UPDATE',
    handlesResource: (r) => r.group === group && r.plural === 'certificatesigningrequests',
    async validate(a) {
      if (a.subresource !== 'approval' || a.resource.group !== group || a.resource.plural !== 'certificatesigningrequests') return;
      const signerName = asCsr(a.object!).spec?.signerName ?? '';
      if (await isAuthorizedForSignerName(authorizer, domain, a.user, 'approve', signerName)) return;
      throw status.forbidden(
        { group, resource: 'certificatesigningrequests' },
        a.name,
        `user not permitted to approve requests with signerName "${signerName}"`,
      );
    },
  };
}
