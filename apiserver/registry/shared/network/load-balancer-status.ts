/**
 * Kubernetes' ValidateLoadBalancerStatus (1.28): the status.loadBalancer of a Service and of an
 * Ingress, whose ingress IPs are addresses and hostnames DNS names.
 */
import type { LoadBalancerIngress } from '../../../api/generated/types.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { invalid } from '../../../api/field-errors.js';
import { isDNS1123Subdomain } from '../../../api/validation/names.js';
import { parseIP } from './ip.js';

/** ValidateLoadBalancerStatus: ingress IPs are addresses, hostnames DNS names (not addresses). */
export function validateLoadBalancerStatus(ingress: LoadBalancerIngress[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (ingress ?? []).forEach((entry, i) => {
    const at = path.child('ingress').index(i);
    if (entry.ip && !parseIP(entry.ip)) errs.push(invalid(at.child('ip'), entry.ip, 'must be a valid IP address'));
    if (entry.hostname) {
      isDNS1123Subdomain(entry.hostname).forEach((m) => errs.push(invalid(at.child('hostname'), entry.hostname, m)));
      if (parseIP(entry.hostname)) errs.push(invalid(at.child('hostname'), entry.hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}
