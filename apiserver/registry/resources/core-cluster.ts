/** Core group (`/api/v1`) cluster kinds: Node, LimitRange, ResourceQuota and the read-only ComponentStatus. */
import type { KindDeclaration } from '../generic/kind-declaration.js';
import { COMPONENT_STATUS_DEPRECATION, componentStatuses } from '../core/componentstatus/components.js';
import { componentStatusColumns } from '../core/componentstatus/columns.js';
import { nodeProxySubresource } from '../core/connect-subresources.js';
import { nodeSelectableFields, nodeStatusStrategy, nodeStrategy } from '../core/node/strategy.js';
import { nodeColumns } from '../core/node/columns.js';
import { limitRangeStrategy } from '../core/limitrange/strategy.js';
import { resourceQuotaStatusStrategy, resourceQuotaStrategy } from '../core/resourcequota/strategy.js';
import { resourceQuotaColumns } from '../core/resourcequota/columns.js';

export const coreClusterResources: KindDeclaration[] = [
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
    subresources: { status: nodeStatusStrategy, proxy: nodeProxySubresource },
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
    returnDeletedObject: true,
    strategy: resourceQuotaStrategy,
    subresources: { status: resourceQuotaStatusStrategy },
    columns: resourceQuotaColumns,
  },
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'ComponentStatus',
    plural: 'componentstatuses',
    singular: 'componentstatus',
    shortNames: ['cs'],
    namespaced: false,
    schema: 'core.v1.ComponentStatus',
    nameRule: 'dns-subdomain',
    verbs: ['get', 'list'],
    computed: componentStatuses,
    notStored: true,
    deprecationWarning: COMPONENT_STATUS_DEPRECATION,
    columns: componentStatusColumns,
  },
];
