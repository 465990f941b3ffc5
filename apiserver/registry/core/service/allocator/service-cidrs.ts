/**
 * --service-cluster-ip-range as kube-apiserver reads it: one CIDR or two of different families
 * ("10.0.0.0/24,fd00::/108"), the primary of at least 8 addresses, none above 2^20, with its error
 * texts.
 */
import { cidrSize, formatCIDR, parseCIDR } from '../../../shared/network/ip.js';

/** kube-apiserver's default range. */
export const DEFAULT_SERVICE_CLUSTER_IP_RANGE = '10.0.0.0/24';
const MIN_RANGE_SIZE = 8n;
const MAX_CIDR_BITS = 20;

/**
 * Parses and checks the flag's value (empty: the default range) in kube-apiserver's order — each CIDR
 * parsed, then the entry count, sizes and families; returns the CIDRs in canonical form
 * ("10.0.0.0/24"). Throws with kube-apiserver's messages.
 */
export function parseServiceClusterIPRanges(value: string): string[] {
  if (value === '') return [DEFAULT_SERVICE_CLUSTER_IP_RANGE];
  const entries = value.split(',');
  const primary = parseCIDR(entries[0]);
  if (!primary) throw new Error('service-cluster-ip-range[0] is not a valid cidr');
  if (cidrSize(primary) < MIN_RANGE_SIZE) {
    throw new Error(
      `error determining service IP ranges for primary service cidr: the service cluster IP range must be at least ${MIN_RANGE_SIZE} IP addresses`,
    );
  }
  const cidrs = [primary];
  if (entries.length > 1) {
    const secondary = parseCIDR(entries[1]);
    if (!secondary) throw new Error('service-cluster-ip-range[1] is not an ip net');
    cidrs.push(secondary);
  }
  if (entries.length > 2) throw new Error('--service-cluster-ip-range must not contain more than two entries');
  cidrs.forEach((cidr, i) => {
    if (i === 1 && cidr.family === primary.family) {
      throw new Error('--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family');
    }
    if (cidr.bits - cidr.prefixLength > MAX_CIDR_BITS) {
      const flag = i === 0 ? '--service-cluster-ip-range' : '--service-cluster-ip-range[1]';
      throw new Error(`specified ${flag} is too large; for ${cidr.bits}-bit addresses, the mask must be >= ${cidr.bits - MAX_CIDR_BITS}`);
    }
  });
  return cidrs.map(formatCIDR);
}
