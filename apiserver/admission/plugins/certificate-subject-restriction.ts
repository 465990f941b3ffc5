/**
 * CertificateSubjectRestriction: a request for the API server client signer may not ask for the
 * system:masters group (403 on create).
 */
import { asCsr } from '../../api/certificates/csr.js';
import { CertificateRequestError, parseCertificateRequestPem } from '../../api/certificates/pkcs10.js';
import { builtInSigners } from '../../api/certificates/signers.js';
import type { ApiDomain } from '../../api/domain.js';
import * as status from '../../api/status.js';
import type { ValidatingPlugin } from '../interfaces.js';

const MASTERS = 'system:masters';

export function newCertificateSubjectRestriction(domain: ApiDomain): ValidatingPlugin {
  const group = domain.group('certificates.k8s.io');
  const signer = builtInSigners(domain).apiServerClient;
  return {
    name: 'CertificateSubjectRestriction',
    handles: (op) => op === 'CREATE',
    handlesResource: (r) => r.group === group && r.plural === 'certificatesigningrequests',
    async validate(a) {
      if (a.subresource !== '' || a.resource.group !== group || a.resource.plural !== 'certificatesigningrequests') return;
      const csr = asCsr(a.object!);
      if (csr.spec?.signerName !== signer) return;
      const gr = { group, resource: 'certificatesigningrequests' };
      let organizations: string[];
      try {
        organizations = parseCertificateRequestPem(Buffer.from(csr.spec.request ?? '', 'base64')).subject.organizations;
      } catch (err) {
        if (!(err instanceof CertificateRequestError)) throw err;
        throw status.forbidden(gr, a.name, `failed to parse CSR: ${err.message}`);
      }
      if (organizations.includes(MASTERS))
        throw status.forbidden(gr, a.name, `use of ${signer} signer with ${MASTERS} group is not allowed`);
    },
  };
}
