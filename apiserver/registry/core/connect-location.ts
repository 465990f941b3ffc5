/**
 * Where the CONNECT subresources lead (Kubernetes' pod/node/service ResourceLocation and the pod
 * connection options): pods/log, exec, attach and portforward to the node agent of the pod's node,
 * nodes/proxy to a node's agent, pods/proxy to the pod's IP, services/proxy to a ready endpoint of the
 * service port. Pure: given the objects, an address or a Status error.
 */
import * as status from '../../api/status.js';
import type { Endpoints, Node, Pod, Service } from '../../api/generated/types.js';
import { queryBool } from '../../runtime/query-params.js';

/** How the API server reaches node agents (--kubelet-port, --kubelet-preferred-address-types). */
export interface NodeAgentOptions {
  port: number;
  preferredAddressTypes: readonly string[];
}

export const DEFAULT_PREFERRED_ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];

/** A proxy target: scheme, host, port, path and query. */
export interface Location {
  scheme: 'http' | 'https';
  host: string;
  port: number;
  path: string;
  query?: URLSearchParams;
}

export function locationURL(l: Location): string {
  const host = l.host.includes(':') ? `[${l.host}]` : l.host;
  const q = l.query?.toString();
  return `${l.scheme}://${host}:${l.port}${l.path}${q ? `?${q}` : ''}`;
}

/** The node agent's address by the preferred address types, and its port (the node's daemon endpoint, else --kubelet-port). */
export function nodeAgent(node: Node, opts: NodeAgentOptions): { host: string; port: number } {
  const addresses = node.status?.addresses ?? [];
  for (const type of opts.preferredAddressTypes) {
    const a = addresses.find((x) => x.type === type && x.address);
    if (a) return { host: a.address, port: node.status?.daemonEndpoints?.kubeletEndpoint?.Port || opts.port };
  }
  throw status.badRequest(`no preferred addresses found; known addresses: [${addresses.map((a) => `{${a.type} ${a.address}}`).join(' ')}]`);
}

/** The container a pod connection is for: the one named, or the pod's only container. */
function containerOf(pod: Pod, requested: string | null): string {
  const name = pod.metadata.name ?? '';
  if (requested) {
    const all = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []), ...(pod.spec?.ephemeralContainers ?? [])];
    if (!all.some((c) => c.name === requested)) throw status.badRequest(`container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  const containers = pod.spec?.containers ?? [];
  if (containers.length === 1) return containers[0].name;
  const names = containers.map((c) => c.name);
  throw status.badRequest(`a container name must be specified for pod ${name}, choose one of: [${names.join(' ')}]`);
}

/** Query parameters each pod connection passes on to the node agent. */
const PASSED: Record<string, readonly string[]> = {
  log: ['follow', 'previous', 'sinceSeconds', 'sinceTime', 'timestamps', 'tailLines', 'limitBytes', 'insecureSkipTLSVerifyBackend'],
  exec: ['command', 'stdin', 'stdout', 'stderr', 'tty'],
  attach: ['stdin', 'stdout', 'stderr', 'tty'],
  portforward: ['ports'],
};

/** The boolean PodLogOptions passed on to the node agent. */
const LOG_FLAGS = new Set(['follow', 'previous', 'timestamps']);

/** The stream flags of exec and attach, as the node agent's query names them. */
const STREAM_PARAMS: Record<string, string> = { stdin: 'input', stdout: 'output', stderr: 'error', tty: 'tty' };

/** The node agent path of a pod connection (log, exec, attach, portforward) with the query it passes on. */
export function podAgentLocation(
  kind: 'log' | 'exec' | 'attach' | 'portforward',
  pod: Pod,
  node: Node | undefined,
  query: URLSearchParams,
  opts: NodeAgentOptions,
): Location {
  const name = pod.metadata.name ?? '';
  const ns = pod.metadata.namespace ?? '';
  if (!pod.spec?.nodeName || !node) {
    if (kind === 'log') throw status.badRequest(`pod ${name} does not have a host assigned`);
    throw status.badRequest(`pod ${name} does not have a host assigned`);
  }
  const passed = new URLSearchParams();
  for (const key of PASSED[kind]) {
    const values = query.getAll(key);
    // exec and attach streams are named as the node agent names them: stdin → input, stdout → output, stderr → error.
    const agentKey = STREAM_PARAMS[key] && kind !== 'log' ? STREAM_PARAMS[key] : key;
    if (STREAM_PARAMS[key] && kind !== 'log') {
      if (queryBool(query, key)) passed.append(agentKey, '1');
    } else if (LOG_FLAGS.has(key)) {
      // decoded into PodLogOptions, then written again for the node agent only when set
      if (queryBool(query, key)) passed.append(key, 'true');
    } else for (const v of values) passed.append(agentKey, v);
  }
  const { host, port } = nodeAgent(node, opts);
  const enc = encodeURIComponent;
  if (kind === 'portforward') return { scheme: 'https', host, port, path: `/portForward/${enc(ns)}/${enc(name)}`, query: passed };
  const container = containerOf(pod, query.get('container'));
  const prefix = kind === 'log' ? 'containerLogs' : kind;
  return { scheme: 'https', host, port, path: `/${prefix}/${enc(ns)}/${enc(name)}/${enc(container)}`, query: passed };
}

/** nodes/proxy: the node agent, the rest of the path after `proxy`. */
export function nodeProxyLocation(node: Node, rest: string, query: URLSearchParams, opts: NodeAgentOptions, scheme = 'https'): Location {
  const { host, port } = nodeAgent(node, opts);
  return { scheme: scheme === 'http' ? 'http' : 'https', host, port, path: rest || '/', query };
}

/** "name", "name:port" or "scheme:name:port", as proxy subresource names are written. */
export function splitProxyName(id: string): { scheme: string; name: string; port: string } {
  const parts = id.split(':');
  if (parts.length === 1) return { scheme: '', name: parts[0], port: '' };
  if (parts.length === 2) return { scheme: '', name: parts[0], port: parts[1] };
  if (parts.length === 3) return { scheme: parts[0], name: parts[1], port: parts[2] };
  throw status.badRequest(`invalid service request ${JSON.stringify(id)}`);
}

/** pods/proxy: the pod IP and the port given (or the first container port). */
export function podProxyLocation(pod: Pod, scheme: string, port: string, rest: string, query: URLSearchParams): Location {
  const ip = pod.status?.podIP;
  const name = pod.metadata.name ?? '';
  if (!ip) throw status.badRequest(`address not allowed`);
  let portNum = Number(port);
  if (!port) portNum = pod.spec?.containers?.flatMap((c) => c.ports ?? [])[0]?.containerPort ?? 80;
  else if (!/^\d+$/.test(port)) {
    const named = pod.spec?.containers?.flatMap((c) => c.ports ?? []).find((p) => p.name === port);
    if (!named) throw status.badRequest(`no such port ${port} on pod ${name}`);
    portNum = named.containerPort;
  }
  return { scheme: scheme === 'https' ? 'https' : 'http', host: ip, port: portNum, path: rest || '/', query };
}

/** services/proxy: a ready endpoint address of the service port (by name or number). */
export function serviceProxyLocation(
  service: Service,
  endpoints: Endpoints | undefined,
  scheme: string,
  port: string,
  rest: string,
  query: URLSearchParams,
): Location {
  const name = service.metadata.name ?? '';
  const ports = service.spec?.ports ?? [];
  const svcPort = port ? ports.find((p) => p.name === port || String(p.port) === port) : ports[0];
  if (!svcPort) throw status.serviceUnavailable(`no endpoints available for service "${name}"`);
  for (const subset of endpoints?.subsets ?? []) {
    const epPort =
      (subset.ports ?? []).find((p) => (p.name ?? '') === (svcPort.name ?? '')) ?? (ports.length === 1 ? subset.ports?.[0] : undefined);
    const addresses = subset.addresses ?? [];
    if (epPort && addresses.length) {
      const a = addresses[Math.floor(Math.random() * addresses.length)];
      return { scheme: scheme === 'https' ? 'https' : 'http', host: a.ip, port: epPort.port, path: rest || '/', query };
    }
  }
  throw status.serviceUnavailable(`no endpoints available for service "${name}"`);
}
