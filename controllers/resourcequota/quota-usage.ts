/**
 * What objects count against a ResourceQuota, summed from what each object uses — the definition
 * admission charges by (apiserver/api/quota-usage.ts): Pods that are not terminal and are within the
 * quota's scopes, Services, PersistentVolumeClaims, and any other resource's objects by count.
 */
import type { Pod, PodSpec } from '../../apiserver/api/generated/types.js';
import { type ApiObject, asKind } from '../../apiserver/api/object.js';
import { formatQuantity, type Quantity, ZERO_QUANTITY } from '../../apiserver/api/quantity.js';
import { addAllUsage, addQuantities, objectUsage, type PodSpecView } from '../../apiserver/api/quota-usage.js';
import { podStatus } from '../controllerutil/pod-status.js';

export { addQuantities };
export type ResourceList = Map<string, Quantity>;

/** The summed usage of objects of one resource (served group and plural). */
export function objectsUsage(group: string, resource: string, objects: ApiObject[], storageClassGroup: string): ResourceList {
  const used: ResourceList = new Map();
  for (const o of objects)
    addAllUsage(
      used,
      objectUsage(group, resource, () => o, storageClassGroup),
    );
  return used;
}

export function isTerminalPod(pod: Pod): boolean {
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
export function podInScopes(pod: Pod, q: QuotaScopes): boolean {
  const spec: Partial<PodSpec> = pod.spec ?? {};
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

/** The usage of the namespace's Pods (from an untyped informer, counted as any kind is) within the quota's scopes. */
export function podUsage(pods: ApiObject[], scopes: QuotaScopes): ResourceList {
  return objectsUsage(
    '',
    'pods',
    pods.filter((o) => {
      const pod = asKind<Pod>(o);
      return !isTerminalPod(pod) && podInScopes(pod, scopes);
    }),
    '',
  );
}

export function serviceUsage(services: ApiObject[]): ResourceList {
  return objectsUsage('', 'services', services, '');
}

export function claimUsage(claims: ApiObject[], storageGroup: string): ResourceList {
  return objectsUsage('', 'persistentvolumeclaims', claims, storageGroup);
}

/** Quantities as the API writes them. */
export function toJson(list: ResourceList, keys: Iterable<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) out[k] = formatQuantity(list.get(k) ?? ZERO_QUANTITY);
  return out;
}
