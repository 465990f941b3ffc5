/** The core group's workload kind: Pod. */
import type { ResourceDeclaration } from '../resource.js';
import { podSelectableFields, podStrategy } from '../../registry/core/pod/strategy.js';
import { podStatusSubresource } from '../../registry/core/pod/status.js';
import { podColumns } from '../../registry/core/pod/columns.js';

export const corePodResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'Pod',
    plural: 'pods',
    singular: 'pod',
    shortNames: ['po'],
    categories: ['all'],
    namespaced: true,
    schema: 'core.v1.Pod',
    nameRule: 'dns-subdomain',
    strategy: podStrategy,
    subresources: { status: podStatusSubresource },
    columns: podColumns,
    selectableFields: podSelectableFields,
  },
];
