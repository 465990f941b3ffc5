/**
 * CertificateSigning: an update of certificatesigningrequests/status that changes the certificate or
 * the conditions needs the `sign` verb on the request's signer (`signers`, named for it or for its
 * domain's `/*`), else 403.
 */
import { asCsr } from '../../api/certificates/csr.js';
import type { ApiDomain } from '../../api/domain.js';
import { jsonEqual } from '../../api/object.js';
import * as status from '../../api/status.js';
import type { Authorizer } from '../../authorization/interfaces.js';
import { isAuthorizedForSignerName } from '../certificates/signer-authorization.js';
import type { ValidatingPlugin } from '../interfaces.js';

export function newCertificateSigning(domain: ApiDomain, authorizer: Authorizer): ValidatingPlugin {
  const group = domain.group('certificates.k8s.io');
  return {
    name: 'CertificateSigning',
    handles: (op) => op === 'UPDATE',
    handlesResource: (r) => r.group === group && r.plural === 'certificatesigningrequests',
    async validate(a) {
      if (a.subresource !== 'status' || a.resource.group !== group || a.resource.plural !== 'certificatesigningrequests') return;
      const csr = asCsr(a.object!);
      const old = asCsr(a.oldObject!);
      const unchanged =
        (csr.status?.certificate ?? '') === (old.status?.certificate ?? '') &&
        jsonEqual(csr.status?.conditions ?? [], old.status?.conditions ?? []);
      if (unchanged) return;
      const signerName = old.spec?.signerName ?? '';
      if (await isAuthorizedForSignerName(authorizer, domain, a.user, 'sign', signerName)) return;
      throw status.forbidden(
        { group, resource: 'certificatesigningrequests' },
        a.name,
        `user not permitted to sign requests with signerName "${signerName}"`,
      );
    },
  };
}
