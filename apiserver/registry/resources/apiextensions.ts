/** `apiextensions.k8s.io/v1`, served under the API domain (apiextensions.orch.io): CustomResourceDefinition. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { statusSubresource } from '../generic/status-subresource.js';
import { crdStrategy } from '../apiextensions/crd/strategy.js';

export const apiextensionsResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    requireResourceVersionOnUpdate: true,
    plural: 'customresourcedefinitions',
    singular: 'customresourcedefinition',
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    namespaced: false,
    schema: 'apiextensions.v1.CustomResourceDefinition',
    nameRule: 'dns-subdomain',
    strategy: crdStrategy,
    subresources: { status: statusSubresource },
    trackGeneration: true,
  },
];
