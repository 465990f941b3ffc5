/**
 * persistentVolumeClaimRetentionPolicy (StatefulSetAutoDeletePVC, on by default in Kubernetes 1.28):
 * the owner references a Pod's claims should carry so the garbage collector deletes them as the policy
 * says. `whenDeleted: Delete` makes the StatefulSet an owner of the claims of the Pods in its ordinal
 * range; `whenScaled: Delete` makes a condemned Pod (scaled away) the owner of its claims instead, so
 * they go with it. `Retain` removes the reference again.
 */
import type { KindObject } from '../../apiserver/api/object.js';
import type { OwnerReference } from '../../apiserver/api/object-meta.js';

export interface RetentionPolicy {
  whenDeleted?: string;
  whenScaled?: string;
}

const DELETE = 'Delete';

function withRef(refs: OwnerReference[], owner: KindObject, apiVersion: string, kind: string): OwnerReference[] {
  if (refs.some((r) => r.uid === owner.metadata.uid)) return refs;
  return [...refs, { apiVersion, kind, name: owner.metadata.name!, uid: owner.metadata.uid! }];
}

function withoutRef(refs: OwnerReference[], owner: KindObject): OwnerReference[] {
  return refs.filter((r) => r.uid !== owner.metadata.uid);
}

/**
 * The claim's owner references under the policy for this Pod (updateClaimOwnerRefForSetAndPod);
 * `scaledDown` is true for a Pod outside the set's ordinal range.
 */
export function claimOwnerRefs(
  claim: KindObject,
  set: KindObject,
  pod: KindObject,
  policy: RetentionPolicy | undefined,
  scaledDown: boolean,
): OwnerReference[] {
  let refs = claim.metadata.ownerReferences ?? [];
  const deleteWithSet = policy?.whenDeleted === DELETE;
  const deleteWhenScaled = policy?.whenScaled === DELETE;
  refs = deleteWithSet && !(deleteWhenScaled && scaledDown) ? withRef(refs, set, 'apps/v1', 'StatefulSet') : withoutRef(refs, set);
  refs = deleteWhenScaled && scaledDown ? withRef(refs, pod, 'v1', 'Pod') : withoutRef(refs, pod);
  return refs;
}

/**
 * True when a claim still names an earlier Pod of this name as its owner (hasStaleOwnerRef): under
 * `whenScaled: Delete` the new Pod waits until the garbage collector has deleted that claim.
 */
export function claimIsStale(claim: KindObject, podName: string, podUid: string | undefined, policy: RetentionPolicy | undefined): boolean {
  if (policy?.whenScaled !== DELETE) return false;
  return (claim.metadata.ownerReferences ?? []).some((r) => r.kind === 'Pod' && r.name === podName && r.uid !== podUid);
}
