/**
 * Where a remote APIService's requests go (kube-aggregator's ServiceResolver). With endpoint routing
 * (--enable-aggregator-routing, on by default in orch: there is no kube-proxy to carry a cluster IP)
 * the Service's port is found by number, then an address of its Endpoints with the port of the same
 * name; without it the Service's cluster IP and port. An ExternalName Service leads to its name.
 * A failure names the reason the availability controller writes (ServiceNotFound, ServicePortError,
 * EndpointsNotFound, MissingEndpoints), with kube-aggregator's messages.
 */
import type { Endpoints, Service } from '../../api/generated/types.js';

export interface ServiceTarget {
  namespace: string;
  name: string;
  port: number;
}

/** How a Service and its Endpoints are read (from the stores, cached reads). */
export interface ServiceReader {
  service(namespace: string, name: string): Promise<Service | undefined>;
  endpoints(namespace: string, name: string): Promise<Endpoints | undefined>;
}

export class ResolveError extends Error {
  constructor(
    readonly reason: 'ServiceNotFound' | 'ServicePortError' | 'EndpointsNotFound' | 'MissingEndpoints',
    message: string,
  ) {
    super(message);
  }
}

export interface ResolvedEndpoint {
  host: string;
  port: number;
}

export async function resolveEndpoint(reader: ServiceReader, t: ServiceTarget, endpointRouting: boolean): Promise<ResolvedEndpoint> {
  const service = await reader.service(t.namespace, t.name);
  const where = `service/${t.name} in ${JSON.stringify(t.namespace)}`;
  if (!service) throw new ResolveError('ServiceNotFound', `${where} is not present`);
  const type = service.spec?.type ?? 'ClusterIP';
  if (type === 'ExternalName') return { host: service.spec?.externalName ?? '', port: t.port };
  const svcPort = (service.spec?.ports ?? []).find((p) => p.port === t.port);
  if (!svcPort) throw new ResolveError('ServicePortError', `${where} is not listening on port ${t.port}`);
  if (!endpointRouting) {
    const ip = service.spec?.clusterIP;
    if (!ip || ip === 'None') throw new ResolveError('MissingEndpoints', `${where} has no cluster IP`);
    return { host: ip, port: t.port };
  }
  const endpoints = await reader.endpoints(t.namespace, t.name);
  if (!endpoints) throw new ResolveError('EndpointsNotFound', `cannot find endpoints for ${where}`);
  const portName = svcPort.name ?? '';
  for (const subset of endpoints.subsets ?? []) {
    const addresses = subset.addresses ?? [];
    const port = (subset.ports ?? []).find((p) => (p.name ?? '') === portName);
    if (addresses.length > 0 && port) {
      const address = addresses[Math.floor(Math.random() * addresses.length)];
      return { host: address.ip, port: port.port };
    }
  }
  throw new ResolveError('MissingEndpoints', `endpoints for ${where} have no addresses with port name ${JSON.stringify(portName)}`);
}

/** host:port for a URL (an IPv6 address in brackets). */
export function hostPort(e: ResolvedEndpoint): string {
  return `${e.host.includes(':') ? `[${e.host}]` : e.host}:${e.port}`;
}
