/**
 * Quota scopes (spec.scopes and spec.scopeSelector) over pods: Terminating / NotTerminating
 * (activeDeadlineSeconds), BestEffort / NotBestEffort, PriorityClass (In / NotIn / Exists /
 * DoesNotExist on priorityClassName). A quota with scopes tracks pods only.
 */
import { isBestEffort, type PodSpec } from '../pods.js';

interface ScopeRequirement {
  scopeName: string;
  operator?: string;
  values?: string[];
}

export interface QuotaSpec {
  hard?: Record<string, string>;
  scopes?: string[];
  scopeSelector?: { matchExpressions?: ScopeRequirement[] };
}

function requirements(spec: QuotaSpec): ScopeRequirement[] {
  return [...(spec.scopes ?? []).map((s) => ({ scopeName: s, operator: 'Exists' })), ...(spec.scopeSelector?.matchExpressions ?? [])];
}

function podMatches(r: ScopeRequirement, pod: PodSpec): boolean {
  switch (r.scopeName) {
    case 'Terminating':
      return pod.activeDeadlineSeconds !== undefined && pod.activeDeadlineSeconds !== null;
    case 'NotTerminating':
      return pod.activeDeadlineSeconds === undefined || pod.activeDeadlineSeconds === null;
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass': {
      const name = pod.priorityClassName ?? '';
      switch (r.operator) {
        case 'In':
          return (r.values ?? []).includes(name);
        case 'NotIn':
          return !(r.values ?? []).includes(name);
        case 'Exists':
          return name !== '';
        case 'DoesNotExist':
          return name === '';
        default:
          return false;
      }
    }
    default:
      return false;
  }
}

/** Whether the quota applies to an object of this resource (a pod spec when it is a pod). */
export function quotaMatches(spec: QuotaSpec, podSpec: PodSpec | undefined): boolean {
  const reqs = requirements(spec);
  if (reqs.length === 0) return true;
  if (!podSpec) return false;
  return reqs.every((r) => podMatches(r, podSpec));
}
