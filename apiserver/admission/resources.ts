/** The resources plugins read or match, by their Kubernetes names (the server maps them to the domain). */
import type { KubeResource } from './interfaces.js';

export const NAMESPACES: KubeResource = { group: '', resource: 'namespaces' };
export const PODS: KubeResource = { group: '', resource: 'pods' };
export const SERVICE_ACCOUNTS: KubeResource = { group: '', resource: 'serviceaccounts' };
export const SECRETS: KubeResource = { group: '', resource: 'secrets' };
export const LIMIT_RANGES: KubeResource = { group: '', resource: 'limitranges' };
export const RESOURCE_QUOTAS: KubeResource = { group: '', resource: 'resourcequotas' };
export const PERSISTENT_VOLUME_CLAIMS: KubeResource = { group: '', resource: 'persistentvolumeclaims' };
export const PERSISTENT_VOLUMES: KubeResource = { group: '', resource: 'persistentvolumes' };
export const SERVICES: KubeResource = { group: '', resource: 'services' };
export const ENDPOINTS: KubeResource = { group: '', resource: 'endpoints' };
export const NODES: KubeResource = { group: '', resource: 'nodes' };
export const STORAGE_CLASSES: KubeResource = { group: 'storage.k8s.io', resource: 'storageclasses' };
export const INGRESS_CLASSES: KubeResource = { group: 'networking.k8s.io', resource: 'ingressclasses' };
export const PRIORITY_CLASSES: KubeResource = { group: 'scheduling.k8s.io', resource: 'priorityclasses' };
export const RUNTIME_CLASSES: KubeResource = { group: 'node.k8s.io', resource: 'runtimeclasses' };
export const MUTATING_WEBHOOK_CONFIGURATIONS: KubeResource = {
  group: 'admissionregistration.k8s.io',
  resource: 'mutatingwebhookconfigurations',
};
export const VALIDATING_WEBHOOK_CONFIGURATIONS: KubeResource = {
  group: 'admissionregistration.k8s.io',
  resource: 'validatingwebhookconfigurations',
};

/** Whether a write's resource is this Kubernetes resource (its group is the domain's name for it). */
export function isResource(def: { kubernetesGroup: string; plural: string }, r: KubeResource): boolean {
  return def.kubernetesGroup === r.group && def.plural === r.resource;
}
export const VALIDATING_ADMISSION_POLICIES: KubeResource = {
  group: 'admissionregistration.k8s.io',
  resource: 'validatingadmissionpolicies',
};
export const VALIDATING_ADMISSION_POLICY_BINDINGS: KubeResource = {
  group: 'admissionregistration.k8s.io',
  resource: 'validatingadmissionpolicybindings',
};
