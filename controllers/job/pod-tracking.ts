/**
 * Job tracking with Pod finalizers (Kubernetes 1.26+): every Pod the Job controller creates carries
 * `batch.<domain>/job-tracking`, so a finished Pod cannot vanish before the Job has counted it. A
 * terminated Pod's uid first goes to `status.uncountedTerminatedPods`, then its finalizer is removed,
 * then it moves to `status.succeeded` / `status.failed` — counts survive the Pods' deletion.
 */
import type { Pod } from '../../apiserver/api/generated/types.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { ApiClient } from '../client/api-client.js';
import { PODS } from '../controllerutil/resources.js';
import { podStatus } from '../controllerutil/pod-status.js';

/** The finalizer under the API domain: batch.kubernetes.io/job-tracking on Kubernetes. */
export function trackingFinalizer(labelPrefix: string): string {
  return `batch.${labelPrefix}/job-tracking`;
}

export function hasFinalizer(pod: Pod, finalizer: string): boolean {
  return pod.metadata.finalizers?.includes(finalizer) ?? false;
}

/** Finished for the Job: Succeeded, Failed, or being deleted before it succeeded (an orphan that never fails). */
export function terminalPhase(pod: Pod): 'Succeeded' | 'Failed' | undefined {
  const phase = podStatus(pod).phase;
  if (phase === 'Succeeded') return 'Succeeded';
  if (phase === 'Failed' || pod.metadata.deletionTimestamp) return 'Failed';
  return undefined;
}

export interface UncountedPods {
  succeeded?: string[];
  failed?: string[];
}

/**
 * Removes the finalizer (a strategic merge patch guarded by the Pod's uid, as
 * removeTrackingFinalizerPatch); true when the Pod no longer holds it, gone included.
 */
export async function releasePod(client: ApiClient, pod: Pod, finalizer: string): Promise<boolean> {
  if (!hasFinalizer(pod, finalizer)) return true;
  try {
    await client
      .resource(PODS, pod.metadata.namespace)
      .patch(
        pod.metadata.name!,
        { metadata: { '$deleteFromPrimitiveList/finalizers': [finalizer], uid: pod.metadata.uid } },
        'application/strategic-merge-patch+json',
      );
    return true;
  } catch (err) {
    if (isApiError(err, 'NotFound') || isApiError(err, 'Conflict')) return true;
    throw err;
  }
}
