/** The core group's service-networking kinds: Service (with IP/port allocation) and Endpoints. */
import type { ResourceDeclaration } from '../resource.js';
import { serviceSelectableFields, serviceStatusStrategy, serviceStrategy } from '../../registry/core/service/strategy.js';
import { serviceColumns } from '../../registry/core/service/columns.js';
import { newServiceAllocationHooks } from '../../registry/core/service/allocation-hooks.js';
import { endpointsStrategy } from '../../registry/core/endpoints/strategy.js';
import { endpointsColumns } from '../../registry/core/endpoints/columns.js';

export const coreServiceResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'Service',
    plural: 'services',
    singular: 'service',
    shortNames: ['svc'],
    categories: ['all'],
    namespaced: true,
    schema: 'core.v1.Service',
    nameRule: 'dns-1035-label',
    strategy: serviceStrategy,
    subresources: { status: serviceStatusStrategy },
    allowCreateOnUpdate: true,
    columns: serviceColumns,
    selectableFields: serviceSelectableFields,
    hooks: newServiceAllocationHooks,
  },
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'Endpoints',
    plural: 'endpoints',
    singular: 'endpoints',
    shortNames: ['ep'],
    namespaced: true,
    schema: 'core.v1.Endpoints',
    nameRule: 'dns-subdomain',
    strategy: endpointsStrategy,
    allowCreateOnUpdate: true,
    columns: endpointsColumns,
  },
];
