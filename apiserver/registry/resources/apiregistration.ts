/** `apiregistration.k8s.io/v1` (served as apiregistration.<domain>): APIService, the aggregation layer's registrations. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { apiServiceStatusStrategy, apiServiceStrategy } from '../apiregistration/apiservice/strategy.js';
import { apiServiceColumns } from '../apiregistration/apiservice/columns.js';

export const apiregistrationResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: 'apiregistration.k8s.io',
    version: 'v1',
    kind: 'APIService',
    requireResourceVersionOnUpdate: true,
    plural: 'apiservices',
    singular: 'apiservice',
    categories: ['api-extensions'],
    namespaced: false,
    schema: 'apiregistration.v1.APIService',
    nameRule: 'path-segment',
    strategy: apiServiceStrategy,
    subresources: { status: apiServiceStatusStrategy },
    columns: apiServiceColumns,
  },
];
