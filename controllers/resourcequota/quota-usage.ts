/**
 * What objects count against a ResourceQuota (Kubernetes' quota evaluators): Pods by count and by
 * their compute requests and limits (the larger of the containers' sum and any init container, plus
 * overhead; only Pods that are not terminal), within the quota's scopes; Services (with load
 * balancers and node ports); PersistentVolumeClaims with their storage, per storage class too; and
 * plain counts (`configmaps`, `secrets`, `replicationcontrollers`, `resourcequotas`, `count/<resource>[.<group>]`).
 */
import type { ApiObject } from '../../apiserver/api/object.js';
import { formatQuantity, type Quantity, quantityFrom, ZERO_QUANTITY } from '../../apiserver/api/quantity.js';
import { podStatus } from '../controllerutil/pod-status.js';

export type ResourceList = Map<string, Quantity>;

const pow10 = (n: number) => 10n ** BigInt(n);

/** a + b, exact; the sum keeps a's format (Quantity.Add). */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  if (a.unscaled === 0n) return { ...b, format: b.unscaled === 0n ? a.format : b.format };
  const scale = Math.min(a.scale, b.scale);
  return { unscaled: a.unscaled * pow10(a.scale - scale) + b.unscaled * pow10(b.scale - scale), scale, format: a.format };
}

function maxQuantity(a: Quantity, b: Quantity): Quantity {
  const scale = Math.min(a.scale, b.scale);
  return a.unscaled * pow10(a.scale - scale) >= b.unscaled * pow10(b.scale - scale) ? a : b;
}

function add(list: ResourceList, key: string, q: Quantity): void {
  list.set(key, addQuantities(list.get(key) ?? ZERO_QUANTITY, q));
}

function count(list: ResourceList, key: string, n = 1): void {
  add(list, key, { unscaled: BigInt(n), scale: 0, format: 'DecimalSI' });
}

function quantities(map: Record<string, unknown> | undefined): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of Object.entries(map ?? {})) {
    try {
      out.set(k, quantityFrom(v));
    } catch {
      // The API server validated it; anything else counts as nothing.
    }
  }
  return out;
}

interface Container {
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
}

interface PodSpecView {
  containers?: Container[];
  initContainers?: Container[];
  overhead?: Record<string, unknown>;
  activeDeadlineSeconds?: number;
  priorityClassName?: string;
}

/** The Pod's effective requests or limits (PodRequests / PodLimits). */
function podResources(spec: PodSpecView, kind: 'requests' | 'limits'): ResourceList {
  const total: ResourceList = new Map();
  for (const c of spec.containers ?? []) for (const [k, q] of quantities(c.resources?.[kind])) add(total, k, q);
  for (const c of spec.initContainers ?? [])
    for (const [k, q] of quantities(c.resources?.[kind])) total.set(k, total.has(k) ? maxQuantity(total.get(k)!, q) : q);
  for (const [k, q] of quantities(spec.overhead)) if (total.has(k) || kind === 'requests') add(total, k, q);
  return total;
}

export function isTerminalPod(pod: ApiObject): boolean {
  const phase = podStatus(pod).phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

function isBestEffort(spec: PodSpecView): boolean {
  return [...(spec.containers ?? []), ...(spec.initContainers ?? [])].every(
    (c) => Object.keys(c.resources?.requests ?? {}).length === 0 && Object.keys(c.resources?.limits ?? {}).length === 0,
  );
}

export interface QuotaScopes {
  scopes?: string[];
  scopeSelector?: { matchExpressions?: { scopeName: string; operator: string; values?: string[] }[] };
}

/** Whether a Pod is within every scope of the quota. */
export function podInScopes(pod: ApiObject, q: QuotaScopes): boolean {
  const spec = (pod.spec ?? {}) as PodSpecView;
  const check = (scope: string, operator = 'Exists', values: string[] = []) => {
    switch (scope) {
      case 'Terminating':
        return spec.activeDeadlineSeconds !== undefined;
      case 'NotTerminating':
        return spec.activeDeadlineSeconds === undefined;
      case 'BestEffort':
        return isBestEffort(spec);
      case 'NotBestEffort':
        return !isBestEffort(spec);
      case 'PriorityClass': {
        const name = spec.priorityClassName;
        if (operator === 'Exists') return !!name;
        if (operator === 'DoesNotExist') return !name;
        if (operator === 'In') return !!name && values.includes(name);
        if (operator === 'NotIn') return !name || !values.includes(name);
        return false;
      }
      default:
        return true;
    }
  };
  return (
    (q.scopes ?? []).every((s) => check(s)) &&
    (q.scopeSelector?.matchExpressions ?? []).every((e) => check(e.scopeName, e.operator, e.values))
  );
}

/** The usage of the namespace's Pods within the quota's scopes. */
export function podUsage(pods: ApiObject[], scopes: QuotaScopes): ResourceList {
  const used: ResourceList = new Map();
  for (const pod of pods) {
    if (isTerminalPod(pod) || !podInScopes(pod, scopes)) continue;
    count(used, 'pods');
    count(used, 'count/pods');
    const spec = (pod.spec ?? {}) as PodSpecView;
    for (const [k, q] of podResources(spec, 'requests')) {
      add(used, `requests.${k}`, q);
      if (k === 'cpu' || k === 'memory' || k === 'ephemeral-storage') add(used, k, q);
    }
    for (const [k, q] of podResources(spec, 'limits')) add(used, `limits.${k}`, q);
  }
  return used;
}

export function serviceUsage(services: ApiObject[]): ResourceList {
  const used: ResourceList = new Map();
  for (const svc of services) {
    const spec = (svc.spec ?? {}) as { type?: string; ports?: { nodePort?: number }[] };
    count(used, 'services');
    count(used, 'count/services');
    if (spec.type === 'LoadBalancer') count(used, 'services.loadbalancers');
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer')
      count(used, 'services.nodeports', (spec.ports ?? []).filter((p) => p.nodePort).length);
  }
  return used;
}

export function claimUsage(claims: ApiObject[], storageGroup: string): ResourceList {
  const used: ResourceList = new Map();
  for (const pvc of claims) {
    const spec = (pvc.spec ?? {}) as { storageClassName?: string; resources?: { requests?: Record<string, unknown> } };
    const storage = quantities(spec.resources?.requests).get('storage') ?? ZERO_QUANTITY;
    count(used, 'persistentvolumeclaims');
    count(used, 'count/persistentvolumeclaims');
    add(used, 'requests.storage', storage);
    if (spec.storageClassName) {
      count(used, `${spec.storageClassName}.storageclass.${storageGroup}/persistentvolumeclaims`);
      add(used, `${spec.storageClassName}.storageclass.${storageGroup}/requests.storage`, storage);
    }
  }
  return used;
}

/** Quantities as the API writes them. */
export function toJson(list: ResourceList, keys: Iterable<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) out[k] = formatQuantity(list.get(k) ?? ZERO_QUANTITY);
  return out;
}
