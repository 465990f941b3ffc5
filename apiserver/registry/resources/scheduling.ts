/** `scheduling.k8s.io/v1` kinds, served under the API domain (scheduling.orch.io). */
import type { ResourceDeclaration } from '../../api/resource.js';
import { priorityClassColumns, priorityClassStrategy } from '../scheduling/priorityclass/strategy.js';

export const schedulingResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: 'scheduling.k8s.io',
    version: 'v1',
    kind: 'PriorityClass',
    plural: 'priorityclasses',
    singular: 'priorityclass',
    shortNames: ['pc'],
    namespaced: false,
    schema: 'scheduling.v1.PriorityClass',
    nameRule: 'dns-subdomain',
    strategy: priorityClassStrategy,
    trackGeneration: 'create-only',
    columns: priorityClassColumns,
  },
];
