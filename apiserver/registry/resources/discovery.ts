/** `discovery.k8s.io` (served as discovery.<domain>): EndpointSlice. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { endpointSliceStrategy } from '../discovery/endpointslice/strategy.js';
import { endpointSliceColumns } from '../discovery/endpointslice/columns.js';

export const discoveryResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: 'discovery.k8s.io',
    version: 'v1',
    kind: 'EndpointSlice',
    plural: 'endpointslices',
    singular: 'endpointslice',
    namespaced: true,
    schema: 'discovery.v1.EndpointSlice',
    nameRule: 'dns-subdomain',
    strategy: endpointSliceStrategy,
    trackGeneration: 'with-labels',
    columns: endpointSliceColumns,
  },
];
