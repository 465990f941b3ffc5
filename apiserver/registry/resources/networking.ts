/** `networking.k8s.io` (served as networking.<domain>): Ingress, IngressClass and NetworkPolicy. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { ingressStatusStrategy, ingressStrategy } from '../networking/ingress/strategy.js';
import { ingressColumns } from '../networking/ingress/columns.js';
import { ingressClassStrategy } from '../networking/ingressclass/strategy.js';
import { ingressClassColumns } from '../networking/ingressclass/columns.js';
import { networkPolicyStrategy } from '../networking/networkpolicy/strategy.js';
import { networkPolicyColumns } from '../networking/networkpolicy/columns.js';

export const networkingResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: 'networking.k8s.io',
    version: 'v1',
    kind: 'Ingress',
    plural: 'ingresses',
    singular: 'ingress',
    shortNames: ['ing'],
    namespaced: true,
    schema: 'networking.v1.Ingress',
    nameRule: 'dns-subdomain',
    strategy: ingressStrategy,
    subresources: { status: ingressStatusStrategy },
    trackGeneration: true,
    columns: ingressColumns,
  },
  {
    kubernetesGroup: 'networking.k8s.io',
    version: 'v1',
    kind: 'IngressClass',
    plural: 'ingressclasses',
    singular: 'ingressclass',
    namespaced: false,
    schema: 'networking.v1.IngressClass',
    nameRule: 'dns-subdomain',
    strategy: ingressClassStrategy,
    trackGeneration: true,
    columns: ingressClassColumns,
  },
  {
    kubernetesGroup: 'networking.k8s.io',
    version: 'v1',
    kind: 'NetworkPolicy',
    plural: 'networkpolicies',
    singular: 'networkpolicy',
    shortNames: ['netpol'],
    namespaced: true,
    schema: 'networking.v1.NetworkPolicy',
    nameRule: 'dns-subdomain',
    strategy: networkPolicyStrategy,
    trackGeneration: true,
    columns: networkPolicyColumns,
  },
];
