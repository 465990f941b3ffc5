/**
 * What one object adds to a namespace's quota usage (Kubernetes' quota evaluators): object counts
 * (`count/<resource>[.<group>]` and the legacy names pods, services, secrets, configmaps,
 * persistentvolumeclaims, replicationcontrollers, resourcequotas, services.loadbalancers,
 * services.nodeports), a pod's compute requests and limits (containers summed, init containers at
 * their peak, overhead added), a claim's storage (also per StorageClass).
 */
import type { ApiObject } from '../../api/object.js';
import { compareQuantities, formatQuantity } from '../../api/quantity.js';
import type { PodSpec } from '../pods.js';
import { addQuantities, q, type ResourceList } from '../resource-list.js';

const LEGACY_COUNTS = new Set([
  'pods',
  'services',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'replicationcontrollers',
  'resourcequotas',
]);

function add(list: ResourceList, name: string, value: string): void {
  list[name] = list[name] === undefined ? formatQuantity(q(value)) : formatQuantity(addQuantities(q(list[name]), q(value)));
}

function podResources(spec: PodSpec, which: 'requests' | 'limits'): ResourceList {
  const sum: ResourceList = {};
  for (const c of spec.containers ?? []) for (const [k, v] of Object.entries(c.resources?.[which] ?? {})) add(sum, k, v);
  for (const c of spec.initContainers ?? []) {
    for (const [k, v] of Object.entries(c.resources?.[which] ?? {})) {
      if (sum[k] === undefined || compareQuantities(q(v), q(sum[k])) > 0) sum[k] = v;
    }
  }
  for (const [k, v] of Object.entries(spec.overhead ?? {})) add(sum, k, v);
  return sum;
}

/**
 * The usage an object of this resource (Kubernetes group and plural) adds. `object` is called only
 * for the resources whose usage depends on the content (an admission validator's object is copied
 * when first read).
 */
export function usageOf(group: string, resource: string, object: () => ApiObject, storageClassGroup: string): ResourceList {
  const usage: ResourceList = { [`count/${group ? `${resource}.${group}` : resource}`]: '1' };
  if (group === '' && LEGACY_COUNTS.has(resource)) usage[resource] = '1';
  if (group === '' && resource === 'pods') {
    const spec = (object() as { spec?: PodSpec }).spec ?? { containers: [] };
    for (const [k, v] of Object.entries(podResources(spec, 'requests'))) {
      add(usage, `requests.${k}`, v);
      if (k === 'cpu' || k === 'memory' || k === 'ephemeral-storage') add(usage, k, v);
    }
    for (const [k, v] of Object.entries(podResources(spec, 'limits'))) add(usage, `limits.${k}`, v);
  }
  if (group === '' && resource === 'persistentvolumeclaims') {
    const spec = (object() as { spec?: { storageClassName?: string; resources?: { requests?: ResourceList } } }).spec;
    const storage = spec?.resources?.requests?.storage;
    if (storage !== undefined) add(usage, 'requests.storage', storage);
    if (spec?.storageClassName) {
      const prefix = `${spec.storageClassName}.storageclass.${storageClassGroup}`;
      usage[`${prefix}/persistentvolumeclaims`] = '1';
      if (storage !== undefined) add(usage, `${prefix}/requests.storage`, storage);
    }
  }
  if (group === '' && resource === 'services') {
    const spec = (object() as { spec?: { type?: string; ports?: unknown[] } }).spec;
    if (spec?.type === 'LoadBalancer') usage['services.loadbalancers'] = '1';
    if (spec?.type === 'NodePort' || spec?.type === 'LoadBalancer') usage['services.nodeports'] = String(spec.ports?.length ?? 0);
  }
  return usage;
}

/** What a pod must state when a quota limits it: `requests.cpu` needs every container's cpu request. */
export function missingPodResources(spec: PodSpec, hard: ResourceList): string[] {
  const needs: [string, 'requests' | 'limits', string][] = [
    ['requests.cpu', 'requests', 'cpu'],
    ['cpu', 'requests', 'cpu'],
    ['requests.memory', 'requests', 'memory'],
    ['memory', 'requests', 'memory'],
    ['limits.cpu', 'limits', 'cpu'],
    ['limits.memory', 'limits', 'memory'],
  ];
  const missing: string[] = [];
  for (const [quotaName, which, resource] of needs) {
    if (hard[quotaName] === undefined) continue;
    const lacking = [...(spec.initContainers ?? []), ...(spec.containers ?? [])].filter(
      (c) => c.resources?.[which]?.[resource] === undefined,
    );
    if (lacking.length) missing.push(`${quotaName} for: ${lacking.map((c) => c.name).join(',')}`);
  }
  return [...new Set(missing)].sort();
}
