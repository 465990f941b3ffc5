/**
 * IP addresses and CIDRs as Kubernetes parses them (k8s.io/utils/net ParseIPSloppy / ParseCIDRSloppy,
 * i.e. Go 1.16's net package: IPv4 parts may have leading zeros and are read as decimal, no IPv6
 * zones), as numbers so that ranges can be computed. Used by Service, Endpoints and EndpointSlice
 * validation and by the cluster-IP allocator.
 */

export type IPFamily = 'IPv4' | 'IPv6';

/** A parsed address. IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) count as IPv4, as Go's To4() does. */
export interface IPAddress {
  family: IPFamily;
  /** The address as a 32-bit (IPv4) or 128-bit (IPv6) number. */
  value: bigint;
}

/** A parsed CIDR: the network address (host bits cleared) and the prefix length. */
export interface CIDR {
  family: IPFamily;
  network: bigint;
  prefixLength: number;
  /** 32 or 128. */
  bits: number;
}

function parseIPv4(s: string): bigint | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const p of parts) {
    if (!/^\d+$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

/** The 16-bit groups of one side of '::' (an IPv4 tail counts as two groups); null when malformed. */
function parseGroups(s: string, allowIPv4Tail: boolean): bigint[] | null {
  if (s === '') return [];
  const pieces = s.split(':');
  const groups: bigint[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    if (allowIPv4Tail && i === pieces.length - 1 && p.includes('.')) {
      const v4 = parseIPv4(p);
      if (v4 === null) return null;
      groups.push(v4 >> 16n, v4 & 0xffffn);
    } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) groups.push(BigInt(`0x${p}`));
    else return null;
  }
  return groups;
}

function parseIPv6(s: string): bigint | null {
  const halves = s.split('::');
  if (halves.length > 2) return null;
  let groups: bigint[];
  if (halves.length === 2) {
    const head = parseGroups(halves[0], false);
    const tail = parseGroups(halves[1], true);
    if (!head || !tail || head.length + tail.length > 7) return null;
    groups = [...head, ...Array<bigint>(8 - head.length - tail.length).fill(0n), ...tail];
  } else {
    const all = parseGroups(s, true);
    if (all?.length !== 8) return null;
    groups = all;
  }
  return groups.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** Parses an IP address like Kubernetes' ParseIPSloppy; null when it is not one. */
export function parseIP(s: string): IPAddress | null {
  const v4 = parseIPv4(s);
  if (v4 !== null) return { family: 'IPv4', value: v4 };
  if (!s.includes(':')) return null;
  const v6 = parseIPv6(s);
  if (v6 === null) return null;
  if (v6 >> 32n === 0xffffn) return { family: 'IPv4', value: v6 & 0xffffffffn };
  return { family: 'IPv6', value: v6 };
}

/** The family of an address string, or undefined when it is not an address. */
export function familyOf(s: string): IPFamily | undefined {
  return parseIP(s)?.family;
}

/** Parses "address/prefix" like Kubernetes' ParseCIDRSloppy; null when malformed. */
export function parseCIDR(s: string): CIDR | null {
  const slash = s.indexOf('/');
  if (slash < 0) return null;
  const addr = s.slice(0, slash);
  const len = s.slice(slash + 1);
  const bits = addr.includes(':') ? 128 : 32;
  const value = bits === 32 ? parseIPv4(addr) : parseIPv6(addr);
  if (value === null || !/^\d+$/.test(len) || Number(len) > bits) return null;
  const prefixLength = Number(len);
  const hostMask = (1n << BigInt(bits - prefixLength)) - 1n;
  return { family: bits === 32 ? 'IPv4' : 'IPv6', network: value & ~hostMask, prefixLength, bits };
}

/** The number of addresses in a CIDR (2^host bits). */
export function cidrSize(cidr: CIDR): bigint {
  return 1n << BigInt(cidr.bits - cidr.prefixLength);
}

/** Whether an address lies in a CIDR (same family, same network bits). */
export function cidrContains(cidr: CIDR, ip: IPAddress): boolean {
  if (ip.family !== cidr.family) return false;
  return ip.value - cidr.network >= 0n && ip.value - cidr.network < cidrSize(cidr);
}

function formatIPv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  // RFC 5952: the longest run (two groups or more, the first one on a tie) of zero groups becomes "::".
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

/** An address as Go's net.IP.String() prints it (dotted IPv4, RFC 5952 IPv6). */
export function formatIP(ip: IPAddress): string {
  if (ip.family === 'IPv6') return formatIPv6(ip.value);
  return [24n, 16n, 8n, 0n].map((s) => String((ip.value >> s) & 0xffn)).join('.');
}

/** A CIDR as Go's net.IPNet.String() prints it ("10.0.0.0/24"). */
export function formatCIDR(cidr: CIDR): string {
  return `${formatIP({ family: cidr.family, value: cidr.network })}/${cidr.prefixLength}`;
}

function inPrefix(value: bigint, prefix: bigint, prefixBits: number, bits: number): boolean {
  return value >> BigInt(bits - prefixBits) === prefix;
}

/** 0.0.0.0 or :: (Go's IsUnspecified). */
export function isUnspecified(ip: IPAddress): boolean {
  return ip.value === 0n;
}

/** 127.0.0.0/8 or ::1 (Go's IsLoopback). */
export function isLoopback(ip: IPAddress): boolean {
  return ip.family === 'IPv4' ? inPrefix(ip.value, 127n, 8, 32) : ip.value === 1n;
}

/** 169.254.0.0/16 or fe80::/10 (Go's IsLinkLocalUnicast). */
export function isLinkLocalUnicast(ip: IPAddress): boolean {
  return ip.family === 'IPv4' ? inPrefix(ip.value, 0xa9fen, 16, 32) : inPrefix(ip.value, 0x3fan, 10, 128);
}

/** 224.0.0.0/24 or ff02::/16 in Go's reading (ff with scope 2; Go's IsLinkLocalMulticast). */
export function isLinkLocalMulticast(ip: IPAddress): boolean {
  if (ip.family === 'IPv4') return inPrefix(ip.value, 0xe00000n, 24, 32);
  const top = Number(ip.value >> 112n);
  return top >> 8 === 0xff && (top & 0x0f) === 0x02;
}
