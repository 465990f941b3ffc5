/**
 * How a Service's linked fields are settled before validation, as Kubernetes' Service registry does:
 * clusterIP ↔ clusterIPs (normalizeClusterIPs), allocated values a client left out on update
 * (patchAllocatedValues), and fields a type change leaves without meaning (dropTypeDependentFields).
 */
import type { ServiceSpec, ServiceStatus } from './service-spec.js';
import {
  LOAD_BALANCER,
  externallyAccessible,
  needsClusterIP,
  needsHealthCheck,
  needsNodePort,
  nodePortsOf,
  sameList,
} from './service-spec.js';

/**
 * normalizeClusterIPs: clients may set only clusterIP (old clients) or both; the plural follows the
 * singular where the client clearly meant that.
 */
export function normalizeClusterIPs(spec: ServiceSpec, old: ServiceSpec | null): void {
  if (!old) {
    if (spec.clusterIP && !spec.clusterIPs?.length) spec.clusterIPs = [spec.clusterIP];
    return;
  }
  // An old client patching something else left clusterIPs out.
  if (old.clusterIPs?.length && !spec.clusterIPs?.length && (old.clusterIP ?? '') === (spec.clusterIP ?? ''))
    spec.clusterIPs = [...old.clusterIPs];
  if ((old.clusterIP ?? '') !== (spec.clusterIP ?? '') && sameList(old.clusterIPs, spec.clusterIPs)) {
    // Clearing the singular clears the plural; changing it replaces the plural (validation judges the change).
    if (old.clusterIP && !spec.clusterIP) delete spec.clusterIPs;
    else spec.clusterIPs = [spec.clusterIP ?? ''];
  }
}

/**
 * patchAllocatedValues: an update that leaves out values the server allocated (a re-applied
 * manifest) keeps them — cluster IPs, node ports (matched by port name, unless the new object uses
 * that port elsewhere) and the health-check node port.
 */
export function patchAllocatedValues(spec: ServiceSpec, old: ServiceSpec): void {
  if (needsClusterIP(old) && needsClusterIP(spec)) {
    if (!spec.clusterIP && old.clusterIP) spec.clusterIP = old.clusterIP;
    if (!spec.clusterIPs?.length && old.clusterIPs?.length) spec.clusterIPs = [...old.clusterIPs];
  }
  if (needsNodePort(old) && needsNodePort(spec)) {
    const inBoth = new Set(nodePortsOf(old).filter((p) => nodePortsOf(spec).includes(p)));
    const byName = new Map((old.ports ?? []).map((p) => [p.name ?? '', p.nodePort ?? 0]));
    for (const port of spec.ports ?? []) {
      const previous = byName.get(port.name ?? '') ?? 0;
      if (!port.nodePort && previous && !inBoth.has(previous)) port.nodePort = previous;
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(spec) && !spec.healthCheckNodePort && old.healthCheckNodePort) {
    spec.healthCheckNodePort = old.healthCheckNodePort;
  }
}

/**
 * dropTypeDependentFields: on a type change, fields the new type does not use are cleared — but only
 * when the client left them as they were (a changed value goes on to fail validation).
 */
export function dropTypeDependentFields(spec: ServiceSpec, old: ServiceSpec, status: ServiceStatus): void {
  if (needsClusterIP(old) && !needsClusterIP(spec)) {
    if (sameList(old.clusterIPs, spec.clusterIPs)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (sameList(old.ipFamilies, spec.ipFamilies)) delete spec.ipFamilies;
    if (old.ipFamilyPolicy === spec.ipFamilyPolicy) delete spec.ipFamilyPolicy;
  }
  if (needsNodePort(old) && !needsNodePort(spec) && sameList(nodePortsOf(old), nodePortsOf(spec))) {
    for (const port of spec.ports ?? []) delete port.nodePort;
  }
  if (needsHealthCheck(old) && !needsHealthCheck(spec) && old.healthCheckNodePort === spec.healthCheckNodePort)
    delete spec.healthCheckNodePort;
  if (old.type === LOAD_BALANCER && spec.type !== LOAD_BALANCER) {
    if (old.allocateLoadBalancerNodePorts !== undefined && old.allocateLoadBalancerNodePorts === spec.allocateLoadBalancerNodePorts) {
      delete spec.allocateLoadBalancerNodePorts;
    }
    if (old.loadBalancerClass === spec.loadBalancerClass) delete spec.loadBalancerClass;
  }
  if (externallyAccessible(old) && !externallyAccessible(spec) && old.externalTrafficPolicy === spec.externalTrafficPolicy) {
    delete spec.externalTrafficPolicy;
  }
  if (spec.type !== LOAD_BALANCER) status.loadBalancer = {};
}
