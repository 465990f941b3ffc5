/**
 * The Service fields the registry works with (core/v1 ServiceSpec as decoded JSON) and Kubernetes'
 * predicates over them (pkg/api/service and the registry's needs* helpers).
 */
import type { Service, ServiceSpec } from '../../../api/generated/types.js';

export type { LoadBalancerIngress, ServicePort, ServiceSpec, ServiceStatus } from '../../../api/generated/types.js';

export const CLUSTER_IP = 'ClusterIP';
export const NODE_PORT = 'NodePort';
export const LOAD_BALANCER = 'LoadBalancer';
export const EXTERNAL_NAME = 'ExternalName';
/** The clusterIP of a headless Service. */
export const CLUSTER_IP_NONE = 'None';
export const SINGLE_STACK = 'SingleStack';
export const PREFER_DUAL_STACK = 'PreferDualStack';
export const REQUIRE_DUAL_STACK = 'RequireDualStack';

/** The spec of a Service object (an empty one when absent; not attached to the object). */
export function specOf(obj: Service): ServiceSpec {
  return obj.spec ?? {};
}

/** The spec of a Service object, created on it when absent (allocation fills it in). */
export function ensureSpec(obj: Service): ServiceSpec {
  obj.spec ??= {};
  return obj.spec;
}

/** Every type but ExternalName has cluster IPs (or "None"). */
export function needsClusterIP(spec: ServiceSpec): boolean {
  return spec.type !== EXTERNAL_NAME;
}

/** NodePort and LoadBalancer Services have node ports. */
export function needsNodePort(spec: ServiceSpec): boolean {
  return spec.type === NODE_PORT || spec.type === LOAD_BALANCER;
}

/** NeedsHealthCheck: a LoadBalancer with externalTrafficPolicy Local gets a health-check node port. */
export function needsHealthCheck(spec: ServiceSpec): boolean {
  return spec.type === LOAD_BALANCER && spec.externalTrafficPolicy === 'Local';
}

/** ExternallyAccessible: NodePort, LoadBalancer, or ClusterIP with external IPs. */
export function externallyAccessible(spec: ServiceSpec): boolean {
  return spec.type === LOAD_BALANCER || spec.type === NODE_PORT || (spec.type === CLUSTER_IP && (spec.externalIPs?.length ?? 0) > 0);
}

/** Headless: clusterIPs is exactly ["None"]. */
export function isHeadless(spec: ServiceSpec): boolean {
  return spec.clusterIPs?.length === 1 && spec.clusterIPs[0] === CLUSTER_IP_NONE;
}

/** Whether node ports are allocated for ports that do not name one (LoadBalancer: allocateLoadBalancerNodePorts). */
export function shouldAllocateNodePorts(spec: ServiceSpec): boolean {
  if (spec.type === NODE_PORT) return true;
  if (spec.type === LOAD_BALANCER) return spec.allocateLoadBalancerNodePorts !== false;
  return false;
}

/** The non-zero node ports of a spec, in port order. */
export function nodePortsOf(spec: ServiceSpec): number[] {
  return (spec.ports ?? []).map((p) => p.nodePort ?? 0).filter((n) => n !== 0);
}

/** Same lists (order matters); absent counts as empty. */
export function sameList(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}
