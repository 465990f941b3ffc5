/** certificates.k8s.io/v1 (served as certificates.<domain>/v1): CertificateSigningRequest. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { typedSelectableFields } from '../../api/strategy.js';
import type { CertificateSigningRequest } from '../../api/generated/types.js';
import { csrApprovalStrategy, csrStatusStrategy, csrStrategy } from '../certificates/strategy.js';
import { csrColumns } from '../certificates/columns.js';

export const certificatesResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: 'certificates.k8s.io',
    version: 'v1',
    kind: 'CertificateSigningRequest',
    plural: 'certificatesigningrequests',
    singular: 'certificatesigningrequest',
    shortNames: ['csr'],
    namespaced: false,
    schema: 'certificates.v1.CertificateSigningRequest',
    nameRule: 'path-segment',
    strategy: csrStrategy,
    subresources: { status: csrStatusStrategy, approval: csrApprovalStrategy },
    columns: csrColumns,
    // The v1 conversion: no metadata.namespace.
    selectableFields: typedSelectableFields<CertificateSigningRequest>({
      'metadata.name': (o) => o.metadata.name,
      'spec.signerName': (o) => o.spec?.signerName,
    }),
  },
];
