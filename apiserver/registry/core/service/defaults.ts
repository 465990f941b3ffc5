/** Kubernetes' SetDefaults_Service (core/v1), applied on create and update. */
import type { Service } from '../../../api/generated/types.js';
import { CLUSTER_IP, LOAD_BALANCER, NODE_PORT, externallyAccessible } from './service-spec.js';

/** DefaultClientIPServiceAffinitySeconds: 3 hours. */
const DEFAULT_CLIENT_IP_AFFINITY_SECONDS = 10800;

export function setServiceDefaults(obj: Service): void {
  const spec = (obj.spec ??= {});
  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_AFFINITY_SECONDS } };
  }
  if (!spec.type) spec.type = CLUSTER_IP;
  for (const port of spec.ports ?? []) {
    if (!port.protocol) port.protocol = 'TCP';
    if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port;
  }
  if (externallyAccessible(spec) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy === undefined && (spec.type === NODE_PORT || spec.type === LOAD_BALANCER || spec.type === CLUSTER_IP)) {
    spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === LOAD_BALANCER && spec.allocateLoadBalancerNodePorts === undefined) spec.allocateLoadBalancerNodePorts = true;
}
