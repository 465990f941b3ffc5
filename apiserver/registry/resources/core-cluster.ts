/** Core group (`/api/v1`) cluster kinds: Node, LimitRange and ResourceQuota. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { nodeSelectableFields, nodeStatusStrategy, nodeStrategy } from '../core/node/strategy.js';
import { nodeColumns } from '../core/node/columns.js';
import { limitRangeStrategy } from '../core/limitrange/strategy.js';
import { resourceQuotaStatusStrategy, resourceQuotaStrategy } from '../core/resourcequota/strategy.js';
import { resourceQuotaColumns } from '../core/resourcequota/columns.js';

export const coreClusterResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'Node',
    plural: 'nodes',
    singular: 'node',
    shortNames: ['no'],
    namespaced: false,
    schema: 'core.v1.Node',
    nameRule: 'dns-subdomain',
    strategy: nodeStrategy,
    subresources: { status: nodeStatusStrategy },
    statusOnCreate: true,
    columns: nodeColumns,
    selectableFields: nodeSelectableFields,
  },
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'LimitRange',
    plural: 'limitranges',
    singular: 'limitrange',
    shortNames: ['limits'],
    namespaced: true,
    schema: 'core.v1.LimitRange',
    nameRule: 'dns-subdomain',
    strategy: limitRangeStrategy,
  },
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'ResourceQuota',
    plural: 'resourcequotas',
    singular: 'resourcequota',
    shortNames: ['quota'],
    namespaced: true,
    schema: 'core.v1.ResourceQuota',
    nameRule: 'dns-subdomain',
    strategy: resourceQuotaStrategy,
    subresources: { status: resourceQuotaStatusStrategy },
    columns: resourceQuotaColumns,
  },
];
