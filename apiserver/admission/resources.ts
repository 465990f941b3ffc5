/** The resources plugins read or match, by their Kubernetes names (the server maps them to the domain). */
import type {
  Endpoints,
  LimitRange,
  Namespace,
  PersistentVolumeClaim,
  PriorityClass,
  RuntimeClass,
  Service,
  ServiceAccount,
  StorageClass,
} from '../api/generated/types.js';
import { type ApiObject, asKind, type KindObject } from '../api/object.js';
import type { KubeResource, ObjectReader, ReadOptions, TypedKubeResource } from './interfaces.js';

/**
 * `r` as a resource whose objects are `T` (a plugin's view of the kind): the reader hands them out as
 * that, as it found them in the resource's store, which validated them on write.
 */
export function kubeResourceOf<T extends KindObject = ApiObject>(r: KubeResource): TypedKubeResource<T> {
  return r;
}

/** The object of a write to `r` itself (not a subresource), as `r`'s kind; undefined for other writes. */
export function writtenObject<T extends KindObject>(
  a: { resource: { kubernetesGroup: string; plural: string }; subresource: string; object?: ApiObject },
  r: TypedKubeResource<T>,
): T | undefined {
  return isResource(a.resource, r) && !a.subresource && a.object ? asKind<T>(a.object) : undefined;
}

/** Untyped reads of a resource's objects, as a store (or a test's map) gives them. */
export interface UntypedReader {
  get(resource: KubeResource, namespace: string, name: string, opts?: ReadOptions): Promise<ApiObject | null>;
  list(resource: KubeResource, namespace: string, opts?: ReadOptions): Promise<ApiObject[]>;
}

/** The reader plugins get: each object as the kind its resource is typed with (kubeResourceOf). */
export function typedReader(r: UntypedReader): ObjectReader {
  return {
    get: async <T extends KindObject>(resource: TypedKubeResource<T>, namespace: string, name: string, opts?: ReadOptions) => {
      const obj = await r.get(resource, namespace, name, opts);
      return obj && asKind<T>(obj);
    },
    list: async <T extends KindObject>(resource: TypedKubeResource<T>, namespace: string, opts?: ReadOptions) =>
      (await r.list(resource, namespace, opts)).map((o) => asKind<T>(o)),
  };
}

export const NAMESPACES = kubeResourceOf<Namespace>({ group: '', resource: 'namespaces' });
export const PODS: KubeResource = { group: '', resource: 'pods' };
export const SERVICE_ACCOUNTS = kubeResourceOf<ServiceAccount>({ group: '', resource: 'serviceaccounts' });
export const SECRETS: KubeResource = { group: '', resource: 'secrets' };
export const LIMIT_RANGES = kubeResourceOf<LimitRange>({ group: '', resource: 'limitranges' });
export const RESOURCE_QUOTAS: KubeResource = { group: '', resource: 'resourcequotas' };
export const PERSISTENT_VOLUME_CLAIMS = kubeResourceOf<PersistentVolumeClaim>({ group: '', resource: 'persistentvolumeclaims' });
export const PERSISTENT_VOLUMES: KubeResource = { group: '', resource: 'persistentvolumes' };
export const SERVICES = kubeResourceOf<Service>({ group: '', resource: 'services' });
export const ENDPOINTS = kubeResourceOf<Endpoints>({ group: '', resource: 'endpoints' });
export const NODES: KubeResource = { group: '', resource: 'nodes' };
export const STORAGE_CLASSES = kubeResourceOf<StorageClass>({ group: 'storage.k8s.io', resource: 'storageclasses' });
export const INGRESS_CLASSES: KubeResource = { group: 'networking.k8s.io', resource: 'ingressclasses' };
export const PRIORITY_CLASSES = kubeResourceOf<PriorityClass>({ group: 'scheduling.k8s.io', resource: 'priorityclasses' });
export const RUNTIME_CLASSES = kubeResourceOf<RuntimeClass>({ group: 'node.k8s.io', resource: 'runtimeclasses' });
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
