/** The core group's workload kind: Pod. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { podSelectableFields, podStrategy } from '../core/pod/strategy.js';
import { podStatusSubresource } from '../core/pod/status.js';
import { podColumns } from '../core/pod/columns.js';

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
