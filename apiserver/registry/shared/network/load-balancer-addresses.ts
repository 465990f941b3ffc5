/** The load balancer column text of a Service's and an Ingress' table. */
import type { LoadBalancerIngress } from '../../../api/generated/types.js';

/** The load balancer's addresses (IPs, else hostnames), sorted and de-duplicated, comma-joined. */
export function loadBalancerAddresses(ingress: LoadBalancerIngress[] | undefined): string {
  const addresses = new Set((ingress ?? []).map((i) => i.ip || i.hostname || '').filter((a) => a !== ''));
  return [...addresses].sort().join(',');
}
