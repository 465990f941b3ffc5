/** CIDRs as Kubernetes parses them (netutils.ParseCIDRSloppy: IPv4 octets may have leading zeros). */
import { isIPv6 } from 'node:net';

/** The address family of a CIDR, or undefined when it does not parse. */
export function cidrFamily(cidr: string): 4 | 6 | undefined {
  const slash = cidr.indexOf('/');
  if (slash < 0) return undefined;
  const addr = cidr.slice(0, slash);
  const mask = cidr.slice(slash + 1);
  if (!/^\d{1,7}$/.test(mask)) return undefined;
  const bits = Number(mask);
  const octets = addr.split('.');
  if (octets.length === 4 && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255)) return bits <= 32 ? 4 : undefined;
  if (addr.includes('%') || !isIPv6(addr)) return undefined;
  if (bits > 128) return undefined;
  // An IPv4-mapped address counts as IPv4, as Go's To4() does.
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(addr) ? 4 : 6;
}
