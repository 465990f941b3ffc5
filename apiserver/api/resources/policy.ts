/** policy/v1: PodDisruptionBudget. */
import type { ResourceDeclaration } from '../resource.js';
import { podDisruptionBudgetStatusRules, podDisruptionBudgetStrategy } from '../../registry/policy/poddisruptionbudget/strategy.js';
import { podDisruptionBudgetColumns } from '../../registry/policy/poddisruptionbudget/columns.js';
import { statusCountersSubresource } from '../../registry/apps/status-counters.js';

export const policyResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: 'policy',
    version: 'v1',
    kind: 'PodDisruptionBudget',
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
