/** The core group's service-networking kinds: Service (with IP/port allocation) and Endpoints. */
import { serviceProxySubresource } from '../core/connect-subresources.js';
import type { KindDeclaration } from '../generic/kind-declaration.js';
import { serviceStatusStrategy, serviceStrategy } from '../core/service/strategy.js';
import { serviceColumns } from '../core/service/columns.js';
import { newServiceAllocationHooks } from '../core/service/allocation-hooks.js';
import { endpointsStrategy } from '../core/endpoints/strategy.js';
import { endpointsColumns } from '../core/endpoints/columns.js';

export const coreServiceResources: KindDeclaration[] = [
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
    returnDeletedObject: true,
    strategy: serviceStrategy,
    subresources: { status: serviceStatusStrategy, proxy: serviceProxySubresource },
    allowCreateOnUpdate: true,
    columns: serviceColumns,
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
