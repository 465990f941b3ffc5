/** The pod fields plugins read and set, as loose JSON types (the schema has validated their shape). */
import type { EnvFromSource, EnvVar, ProjectedVolumeSource, SecretVolumeSource } from '../api/generated/types.js';
import type { ApiObject } from '../api/object.js';
import type { AdmissionAttributes } from './interfaces.js';
import { isResource, PODS } from './resources.js';

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface ResourceRequirements {
  limits?: Record<string, string>;
  requests?: Record<string, string>;
  claims?: unknown[];
}

export interface Container {
  name: string;
  image?: string;
  imagePullPolicy?: string;
  resources?: ResourceRequirements;
  securityContext?: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean; subPath?: string }[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  [k: string]: unknown;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  ephemeralContainers?: Container[];
  tolerations?: Toleration[];
  nodeSelector?: Record<string, string>;
  nodeName?: string;
  priority?: number;
  priorityClassName?: string;
  preemptionPolicy?: string;
  runtimeClassName?: string;
  overhead?: Record<string, string>;
  serviceAccountName?: string;
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  volumes?: { name: string; secret?: SecretVolumeSource; projected?: ProjectedVolumeSource; [k: string]: unknown }[];
  imagePullSecrets?: { name: string }[];
  affinity?: Record<string, unknown>;
  securityContext?: Record<string, unknown>;
  [k: string]: unknown;
}

export type Pod = ApiObject & { spec: PodSpec };

/** The pod of a write to the pods resource itself (not a subresource), or undefined. */
export function podOf(a: Pick<AdmissionAttributes, 'resource' | 'subresource' | 'object'>): Pod | undefined {
  if (!isResource(a.resource, PODS) || a.subresource !== '' || !a.object) return undefined;
  const pod = a.object as Pod;
  pod.spec ??= { containers: [] };
  return pod;
}

/** Every container of the pod: init, regular, then ephemeral. */
export function allContainers(spec: PodSpec): Container[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
}

/** QoS class BestEffort: no container (init or regular) asks for or limits cpu or memory above zero. */
export function isBestEffort(spec: PodSpec): boolean {
  const positive = (list: Record<string, string> | undefined) =>
    Object.entries(list ?? {}).some(([name, v]) => (name === 'cpu' || name === 'memory') && !/^[+]?0*(\.0*)?[a-zA-Z]*$/.test(String(v)));
  return ![...(spec.containers ?? []), ...(spec.initContainers ?? [])].some(
    (c) => positive(c.resources?.requests) || positive(c.resources?.limits),
  );
}
