/** `coordination.k8s.io/v1` kinds, served under the API domain (coordination.orch.io). */
import type { ResourceDeclaration } from '../../api/resource.js';
import { leaseColumns, leaseStrategy } from '../coordination/lease/strategy.js';

export const coordinationResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: 'coordination.k8s.io',
    version: 'v1',
    kind: 'Lease',
    requireResourceVersionOnUpdate: true,
    plural: 'leases',
    singular: 'lease',
    namespaced: true,
    schema: 'coordination.v1.Lease',
    nameRule: 'dns-subdomain',
    strategy: leaseStrategy,
    columns: leaseColumns,
  },
];
