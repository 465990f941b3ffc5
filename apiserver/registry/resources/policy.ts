/** policy/v1: PodDisruptionBudget. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { podDisruptionBudgetStatusRules, podDisruptionBudgetStrategy } from '../policy/poddisruptionbudget/strategy.js';
import { podDisruptionBudgetColumns } from '../policy/poddisruptionbudget/columns.js';
import { statusCountersSubresource } from '../shared/workload/status-counters.js';

export const policyResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: 'policy',
    version: 'v1',
    kind: 'PodDisruptionBudget',
    requireResourceVersionOnUpdate: true,
    plural: 'poddisruptionbudgets',
    singular: 'poddisruptionbudget',
    shortNames: ['pdb'],
    namespaced: true,
    schema: 'policy.v1.PodDisruptionBudget',
    nameRule: 'dns-subdomain',
    strategy: podDisruptionBudgetStrategy,
    subresources: { status: statusCountersSubresource(podDisruptionBudgetStatusRules) },
    trackGeneration: true,
    columns: podDisruptionBudgetColumns,
  },
];
