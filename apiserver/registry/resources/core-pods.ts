/** The core group's workload kind, Pod, and Binding (the legacy `bindings` collection; pods/binding is Pod's). */
import type { KindDeclaration } from '../generic/kind-declaration.js';
import { bindPodAction, podBindingSubresource } from '../core/pod/binding.js';
import { evictPodAction, podEvictionSubresource } from '../core/pod/eviction.js';
import { podEphemeralContainersSubresource } from '../core/pod/ephemeral-containers.js';
import { podConnectSubresources } from '../core/connect-subresources.js';
import { podFieldLabelAliases, podSelectableFields, podStrategy } from '../core/pod/strategy.js';
import { podStatusSubresource } from '../core/pod/status.js';
import { podColumns } from '../core/pod/columns.js';

export const corePodResources: KindDeclaration[] = [
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
    returnDeletedObject: true,
    strategy: podStrategy,
    subresources: {
      status: podStatusSubresource,
      binding: podBindingSubresource,
      eviction: podEvictionSubresource,
      ephemeralcontainers: podEphemeralContainersSubresource,
      ...podConnectSubresources,
    },
    actions: { binding: bindPodAction, eviction: evictPodAction },
    columns: podColumns,
    selectableFields: podSelectableFields,
    fieldLabelAliases: podFieldLabelAliases,
  },
  {
    kubernetesGroup: '',
    version: 'v1',
    kind: 'Binding',
    plural: 'bindings',
    singular: 'binding',
    namespaced: true,
    schema: 'core.v1.Binding',
    nameRule: 'dns-subdomain',
    verbs: ['create'],
    createAction: bindPodAction,
    notStored: true,
  },
];
