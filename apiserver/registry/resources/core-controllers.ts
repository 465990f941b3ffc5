/** Core group (`/api/v1`) kinds of the pod controllers: ReplicationController and PodTemplate. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { replicationControllerSelectableFields, replicationControllerStrategy } from '../core/replicationcontroller/strategy.js';
import { replicationControllerColumns } from '../core/replicationcontroller/columns.js';
import { podTemplateStrategy } from '../core/podtemplate/strategy.js';
import { podTemplateColumns } from '../core/podtemplate/columns.js';
import { mapSelectorScaleSubresource } from '../generic/scale-subresource.js';
import { replicaSetStatusRules, statusCountersSubresource } from '../shared/workload/status-counters.js';

export const coreControllerResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'ReplicationController',
    plural: 'replicationcontrollers',
    singular: 'replicationcontroller',
    shortNames: ['rc'],
    categories: ['all'],
    namespaced: true,
    schema: 'core.v1.ReplicationController',
    nameRule: 'dns-subdomain',
    strategy: replicationControllerStrategy,
    // ValidateReplicationControllerStatus has ReplicaSet's rules.
    subresources: { status: statusCountersSubresource(replicaSetStatusRules), scale: mapSelectorScaleSubresource },
    trackGeneration: true,
    columns: replicationControllerColumns,
    selectableFields: replicationControllerSelectableFields,
  },
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'PodTemplate',
    plural: 'podtemplates',
    singular: 'podtemplate',
    namespaced: true,
    schema: 'core.v1.PodTemplate',
    nameRule: 'dns-subdomain',
    returnDeletedObject: true,
    strategy: podTemplateStrategy,
    trackGeneration: true,
    columns: podTemplateColumns,
  },
];
