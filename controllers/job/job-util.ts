/** What the Job controller reads from Jobs and their Pods: specs, finished conditions, completion indexes, the pod failure policy. */
import type { Job, JobCondition, JobSpec, JobStatus, Pod } from '../../apiserver/api/generated/types.js';
import type { PodCondition } from '../controllerutil/pod-status.js';
import { podStatus } from '../controllerutil/pod-status.js';

export type { JobCondition, PodFailurePolicyRule } from '../../apiserver/api/generated/types.js';

/** The spec as the controller reads it: `template` is required, but a missing one is still checked for. */
export type JobSpecView = Partial<JobSpec>;
export type JobStatusView = JobStatus;

export const jobSpec = (job: Job): JobSpecView => job.spec ?? {};
export const jobStatus = (job: Job): JobStatusView => job.status ?? {};

/** The Complete or Failed condition that is True, if any (IsJobFinished). */
export function finishedCondition(job: Job): JobCondition | undefined {
  return jobStatus(job).conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

/** The annotation (and label) carrying an Indexed Job Pod's completion index. */
export function completionIndexKey(labelPrefix: string): string {
  return `batch.${labelPrefix}/job-completion-index`;
}

/** The Pod's completion index, if it has a valid one. */
export function podIndex(pod: Pod, key: string): number | undefined {
  const v = pod.metadata.annotations?.[key];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

/** Sorted indexes as ranges: [0,1,2,4] → "0-2,4". */
export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** "0-2,4" → [0,1,2,4] (bad parts are skipped). */
export function parseIndexes(s: string | undefined): number[] {
  const out: number[] = [];
  for (const part of (s ?? '').split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) continue;
    const from = Number(m[1]);
    const to = m[2] !== undefined ? Number(m[2]) : from;
    for (let i = from; i <= to; i++) out.push(i);
  }
  return out;
}

function exitCodes(pod: Pod, containerName?: string): number[] {
  const s = pod.status;
  return [...(s?.initContainerStatuses ?? []), ...(s?.containerStatuses ?? [])]
    .filter((c) => containerName === undefined || c.name === containerName)
    .map((c) => c.state?.terminated?.exitCode)
    .filter((c): c is number => c !== undefined && c !== 0);
}

/**
 * matchPodFailurePolicy: the action of the first rule a failed Pod matches (by a non-zero exit code
 * In / NotIn the values, or by a Pod condition), or undefined when none matches.
 */
export function matchPodFailurePolicy(job: Job, pod: Pod): { action: string; message: string } | undefined {
  const rules = jobSpec(job).podFailurePolicy?.rules ?? [];
  for (const [i, rule] of rules.entries()) {
    const byCodes = rule.onExitCodes;
    if (byCodes) {
      const codes = exitCodes(pod, byCodes.containerName);
      const values = byCodes.values ?? [];
      const hit = codes.find((c) => (byCodes.operator === 'NotIn' ? !values.includes(c) : values.includes(c)));
      if (hit !== undefined) {
        return { action: rule.action ?? 'Count', message: `Container with exit code ${hit} matched ${rule.action} rule at index ${i}` };
      }
      continue;
    }
    const conditions: PodCondition[] = podStatus(pod).conditions ?? [];
    const hit = (rule.onPodConditions ?? []).find((p) => conditions.some((c) => c.type === p.type && c.status === (p.status ?? 'True')));
    if (hit) return { action: rule.action ?? 'Count', message: `Pod has condition ${hit.type} matching ${rule.action} rule at index ${i}` };
  }
  return undefined;
}
