/**
 * What one object adds to its namespace's quota usage (Kubernetes' quota evaluators), in ONE place:
 * ResourceQuota admission charges it for a write and the quota controller sums it over the objects
 * it recounts, so the two can never disagree on what an object uses.
 *
 * Every object counts as `count/<resource>[.<group>]` (the generic object-count evaluator, for every
 * resource, custom ones too) and pods, services, secrets, configmaps, persistentvolumeclaims,
 * replicationcontrollers and resourcequotas also under their legacy names. A pod adds its compute
 * requests and limits (containers summed, an init container's when larger, overhead added to the
 * requests and to the limits it has); a service its load balancer and node ports; a claim its storage
 * (also per StorageClass).
 */
import type { ApiObject } from './object.js';
import { type Quantity, quantityFrom, ZERO_QUANTITY } from './quantity.js';

export type Usage = Map<string, Quantity>;

/** The core resources quotas also count under their own name ("pods" as "count/pods"). */
export const LEGACY_COUNTS: ReadonlySet<string> = new Set([
  'pods',
  'services',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'replicationcontrollers',
  'resourcequotas',
]);

const pow10 = (n: number) => 10n ** BigInt(n);

/** a + b, exact; the sum keeps a's format, a zero takes the other's (Quantity.Add). */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  const scale = Math.min(a.scale, b.scale);
  return {
    unscaled: a.unscaled * pow10(a.scale - scale) + b.unscaled * pow10(b.scale - scale),
    scale,
    format: a.unscaled === 0n ? (b.unscaled === 0n ? a.format : b.format) : a.format,
  };
}

function maxQuantity(a: Quantity, b: Quantity): Quantity {
  const scale = Math.min(a.scale, b.scale);
  return a.unscaled * pow10(a.scale - scale) >= b.unscaled * pow10(b.scale - scale) ? a : b;
}

export function addUsage(list: Usage, key: string, q: Quantity): void {
  list.set(key, addQuantities(list.get(key) ?? ZERO_QUANTITY, q));
}

/** list += other, for every resource of other. */
export function addAllUsage(list: Usage, other: Usage): void {
  for (const [k, q] of other) addUsage(list, k, q);
}

const countOf = (n: number): Quantity => ({ unscaled: BigInt(n), scale: 0, format: 'DecimalSI' });

function quantities(map: Record<string, unknown> | undefined): Usage {
  const out: Usage = new Map();
  for (const [k, v] of Object.entries(map ?? {})) {
    try {
      out.set(k, quantityFrom(v));
    } catch {
      // Validation refuses it; anything else counts as nothing.
    }
  }
  return out;
}

/** The quota name counting a resource's objects: `count/<resource>` (core) or `count/<resource>.<group>`. */
export function objectCountName(group: string, resource: string): string {
  return `count/${group ? `${resource}.${group}` : resource}`;
}

/**
 * The resource whose objects a quota name counts: `count/<resource>[.<group>]` or a legacy name
 * ("configmaps"); undefined for any other name.
 */
export function countedResource(name: string): { group: string; resource: string } | undefined {
  if (LEGACY_COUNTS.has(name)) return { group: '', resource: name };
  if (!name.startsWith('count/')) return undefined;
  const rest = name.slice('count/'.length);
  const dot = rest.indexOf('.');
  const resource = dot < 0 ? rest : rest.slice(0, dot);
  if (!resource) return undefined;
  return { group: dot < 0 ? '' : rest.slice(dot + 1), resource };
}

export interface ServiceSpecView {
  type?: string;
  ports?: { nodePort?: number }[];
  allocateLoadBalancerNodePorts?: boolean;
}

/**
 * The node ports a service uses (services.go): each port of a NodePort or LoadBalancer service is
 * one, counted by intent since none may be allocated yet — except a LoadBalancer that allocates no
 * node ports (allocateLoadBalancerNodePorts: false), which uses only the ports that name one.
 */
export function serviceNodePorts(spec: ServiceSpecView | undefined): number {
  const ports = spec?.ports ?? [];
  if (spec?.type === 'NodePort') return ports.length;
  if (spec?.type === 'LoadBalancer')
    return spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => !!p.nodePort).length : ports.length;
  return 0;
}

interface Container {
  name?: string;
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
}

export interface PodSpecView {
  containers?: Container[];
  initContainers?: Container[];
  overhead?: Record<string, unknown>;
}

/** A pod's effective requests or limits (PodRequests / PodLimits). */
export function podResources(spec: PodSpecView, kind: 'requests' | 'limits'): Usage {
  const total: Usage = new Map();
  for (const c of spec.containers ?? []) for (const [k, q] of quantities(c.resources?.[kind])) addUsage(total, k, q);
  for (const c of spec.initContainers ?? [])
    for (const [k, q] of quantities(c.resources?.[kind])) total.set(k, total.has(k) ? maxQuantity(total.get(k)!, q) : q);
  // Overhead adds to every request, and to the limits there are.
  for (const [k, q] of quantities(spec.overhead)) if (kind === 'requests' || total.has(k)) addUsage(total, k, q);
  return total;
}

/**
 * The usage one object of a resource adds, by its served group and plural. `object` is called only
 * for the resources whose usage depends on the content (pods, services, claims).
 */
export function objectUsage(group: string, resource: string, object: () => ApiObject, storageClassGroup: string): Usage {
  const used: Usage = new Map([[objectCountName(group, resource), countOf(1)]]);
  if (group !== '') return used;
  if (LEGACY_COUNTS.has(resource)) used.set(resource, countOf(1));
  if (resource === 'pods') {
    const spec = (object().spec ?? {}) as PodSpecView;
    for (const [k, q] of podResources(spec, 'requests')) {
      addUsage(used, `requests.${k}`, q);
      if (k === 'cpu' || k === 'memory' || k === 'ephemeral-storage') addUsage(used, k, q);
    }
    for (const [k, q] of podResources(spec, 'limits')) addUsage(used, `limits.${k}`, q);
  } else if (resource === 'services') {
    const spec = object().spec as ServiceSpecView | undefined;
    if (spec?.type === 'LoadBalancer') used.set('services.loadbalancers', countOf(1));
    if (spec?.type === 'NodePort' || spec?.type === 'LoadBalancer') used.set('services.nodeports', countOf(serviceNodePorts(spec)));
  } else if (resource === 'persistentvolumeclaims') {
    const spec = object().spec as { storageClassName?: string; resources?: { requests?: Record<string, unknown> } } | undefined;
    const storage = quantities(spec?.resources?.requests).get('storage');
    if (storage !== undefined) addUsage(used, 'requests.storage', storage);
    if (spec?.storageClassName) {
      const prefix = `${spec.storageClassName}.storageclass.${storageClassGroup}`;
      used.set(`${prefix}/persistentvolumeclaims`, countOf(1));
      if (storage !== undefined) addUsage(used, `${prefix}/requests.storage`, storage);
    }
  }
  return used;
}
