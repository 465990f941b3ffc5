/**
 * Kubernetes' RepackSubsets, the canonical form Endpoints are stored in: addresses (de-duplicated by
 * IP and targetRef uid; not-ready wins over ready) are grouped by the exact set of ports they serve,
 * one subset per group. Addresses are sorted by IP then uid; ports and subsets are sorted by their
 * content (Kubernetes sorts those by a hash, so their order may differ from Kubernetes').
 */
import { parseIP } from '../../shared/network/ip.js';
import type { EndpointAddress, EndpointPort, EndpointSubset } from './types.js';

/** A port-less subset is kept under this marker port. */
const NO_PORT = '';

function addressKey(a: EndpointAddress): string {
  return `${a.ip ?? ''}/${a.targetRef?.uid ?? ''}`;
}

/** IPs in Go's 16-byte order (IPv4 as ::ffff:a.b.c.d), then uid. */
function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  const value = (ip: string | undefined) => {
    const parsed = parseIP(ip ?? '');
    if (!parsed) return -1n;
    return parsed.family === 'IPv4' ? (0xffffn << 32n) | parsed.value : parsed.value;
  };
  const x = value(a.ip);
  const y = value(b.ip);
  if (x !== y) return x < y ? -1 : 1;
  const [u, v] = [a.targetRef?.uid ?? '', b.targetRef?.uid ?? ''];
  return u < v ? -1 : u > v ? 1 : 0;
}

const byJSON = (a: unknown, b: unknown) => {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  return x < y ? -1 : x > y ? 1 : 0;
};

export function repackSubsets(subsets: EndpointSubset[]): EndpointSubset[] {
  const addresses = new Map<string, EndpointAddress>();
  // port key → (address key → ready)
  const byPort = new Map<string, Map<string, boolean>>();
  const portOf = new Map<string, EndpointPort>();
  for (const ss of subsets) {
    const ports = ss.ports?.length ? ss.ports : [undefined];
    for (const port of ports) {
      const portKey = port ? JSON.stringify([port.name ?? '', port.port ?? 0, port.protocol ?? '', port.appProtocol ?? null]) : NO_PORT;
      if (port) portOf.set(portKey, port);
      const set = byPort.get(portKey) ?? new Map<string, boolean>();
      byPort.set(portKey, set);
      const add = (a: EndpointAddress, ready: boolean) => {
        const key = addressKey(a);
        if (!addresses.has(key)) addresses.set(key, a);
        if (set.get(key) !== false) set.set(key, ready);
      };
      (ss.addresses ?? []).forEach((a) => add(a, true));
      (ss.notReadyAddresses ?? []).forEach((a) => add(a, false));
    }
  }
  // Ports that serve the same addresses (with the same readiness) share a subset.
  const groups = new Map<string, { ready: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const [portKey, ready] of byPort) {
    const groupKey = JSON.stringify([...ready].sort(byJSON));
    const group = groups.get(groupKey) ?? { ready, ports: [] };
    groups.set(groupKey, group);
    if (portKey !== NO_PORT) group.ports.push(portOf.get(portKey)!);
  }
  const result: EndpointSubset[] = [];
  for (const { ready, ports } of groups.values()) {
    const subset: EndpointSubset = {};
    const pick = (want: boolean) =>
      [...ready]
        .filter(([, r]) => r === want)
        .map(([k]) => addresses.get(k)!)
        .sort(compareAddresses);
    const readyAddresses = pick(true);
    const notReadyAddresses = pick(false);
    if (readyAddresses.length > 0) subset.addresses = readyAddresses;
    if (notReadyAddresses.length > 0) subset.notReadyAddresses = notReadyAddresses;
    if (ports.length > 0) subset.ports = ports.sort(byJSON);
    result.push(subset);
  }
  return result.sort(byJSON);
}
