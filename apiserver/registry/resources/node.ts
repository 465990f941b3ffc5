/** `node.k8s.io/v1` kinds, served under the API domain (node.orch.io). */
import type { ResourceDeclaration } from '../../api/resource.js';
import { runtimeClassColumns, runtimeClassStrategy } from '../node/runtimeclass/strategy.js';

export const nodeResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: 'node.k8s.io',
    version: 'v1',
    kind: 'RuntimeClass',
    requireResourceVersionOnUpdate: true,
    plural: 'runtimeclasses',
    singular: 'runtimeclass',
    namespaced: false,
    schema: 'node.v1.RuntimeClass',
    nameRule: 'dns-subdomain',
    strategy: runtimeClassStrategy,
    columns: runtimeClassColumns,
  },
];
