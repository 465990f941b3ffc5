/** `flowcontrol.apiserver.k8s.io/v1beta3` (served as flowcontrol.apiserver.<domain>): FlowSchema, PriorityLevelConfiguration. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { flowSchemaStrategy, flowSchemaStatusStrategy } from '../flowcontrol/flow-schema.js';
import { priorityLevelStrategy, priorityLevelStatusStrategy } from '../flowcontrol/priority-level.js';
import { flowSchemaColumns, priorityLevelColumns } from '../flowcontrol/columns.js';

export const flowcontrolResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: 'flowcontrol.apiserver.k8s.io',
    version: 'v1beta3',
    kind: 'FlowSchema',
    plural: 'flowschemas',
    singular: 'flowschema',
    namespaced: false,
    schema: 'flowcontrol.v1beta3.FlowSchema',
    nameRule: 'dns-subdomain',
    strategy: flowSchemaStrategy,
    subresources: { status: flowSchemaStatusStrategy },
    trackGeneration: true,
    columns: flowSchemaColumns,
  },
  {
    kubernetesGroup: 'flowcontrol.apiserver.k8s.io',
    version: 'v1beta3',
    kind: 'PriorityLevelConfiguration',
    plural: 'prioritylevelconfigurations',
    singular: 'prioritylevelconfiguration',
    namespaced: false,
    schema: 'flowcontrol.v1beta3.PriorityLevelConfiguration',
    nameRule: 'dns-subdomain',
    strategy: priorityLevelStrategy,
    subresources: { status: priorityLevelStatusStrategy },
    trackGeneration: true,
    columns: priorityLevelColumns,
  },
];
