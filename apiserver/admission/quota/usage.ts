/**
 * What a write adds to a namespace's quota usage, as ResourceQuota admission charges it: the one
 * definition in api/quota-usage.ts (every resource's `count/<resource>[.<group>]`, the legacy names,
 * a pod's compute, a service's load balancer and node ports, a claim's storage), as resource lists;
 * and what a pod must state for a quota.
 */
import type { ApiObject } from '../../api/object.js';
import { formatQuantity } from '../../api/quantity.js';
import { objectUsage } from '../../api/quota-usage.js';
import type { PodSpec } from '../pods.js';
import type { ResourceList } from '../resource-list.js';

/**
 * The usage an object of this resource (served group and plural) adds — api/quota-usage.ts, the
 * definition the quota controller recounts by. `object` is called only for the resources whose usage
 * depends on the content (an admission validator's object is copied when first read).
 */
export function usageOf(group: string, resource: string, object: () => ApiObject, storageClassGroup: string): ResourceList {
  const usage: ResourceList = {};
  for (const [k, q] of objectUsage(group, resource, object, storageClassGroup)) usage[k] = formatQuantity(q);
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
