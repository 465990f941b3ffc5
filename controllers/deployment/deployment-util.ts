/**
 * The deployment controller's arithmetic and bookkeeping (Kubernetes' deployment/util): the
 * pod-template-hash, which ReplicaSet is new, revisions and the annotations that carry them, rolling
 * update bounds, and the Deployment's conditions.
 */
import type { ApiDomain } from '../../apiserver/api/domain.js';
import type { Deployment, ReplicaSet } from '../../apiserver/api/generated/types.js';
import { deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import type { PodTemplate } from '../controllerutil/pod-template.js';
import { asDecoded } from '../controllerutil/template-hash.js';
import { type DeploymentCondition, type DeploymentStatus, dReplicas, dSpec, rsReplicas, rsSpecOf } from './deployment-types.js';
import { scaledValue } from '../controllerutil/int-or-percent.js';

/** The label that tells a Deployment's ReplicaSets (and their Pods) apart. */
export const POD_TEMPLATE_HASH = 'pod-template-hash';
/** A progress deadline this large means "none" (math.MaxInt32). */
const NO_DEADLINE = 2147483647;

/** The annotations the controller keeps on Deployments and ReplicaSets, under `deployment.<prefix>/`. */
export interface DeploymentAnnotations {
  revision: string;
  revisionHistory: string;
  desiredReplicas: string;
  maxReplicas: string;
}

export function deploymentAnnotations(domain: ApiDomain): DeploymentAnnotations {
  const p = `deployment.${domain.labelPrefix}`;
  return {
    revision: `${p}/revision`,
    revisionHistory: `${p}/revision-history`,
    desiredReplicas: `${p}/desired-replicas`,
    maxReplicas: `${p}/max-replicas`,
  };
}

/** Deployment annotations never copied onto its ReplicaSets. */
function skippedAnnotations(domain: ApiDomain, a: DeploymentAnnotations): Set<string> {
  const kubectl = domain.labelPrefix === 'kubernetes.io' ? 'kubectl.kubernetes.io' : `kubectl.${domain.labelPrefix}`;
  return new Set([
    `${kubectl}/last-applied-configuration`,
    a.revision,
    a.revisionHistory,
    a.desiredReplicas,
    a.maxReplicas,
    `deprecated.deployment.rollback.to`,
  ]);
}

/** EqualIgnoreHash: the templates are equal, as Go decodes them, once the pod-template-hash label is left out. */
export function equalIgnoreHash(a: PodTemplate | undefined, b: PodTemplate | undefined): boolean {
  const strip = (t: PodTemplate | undefined) => {
    const c = deepCopy(t ?? {});
    if (c.metadata?.labels) {
      delete c.metadata.labels[POD_TEMPLATE_HASH];
      if (Object.keys(c.metadata.labels).length === 0) delete c.metadata.labels;
    }
    return c;
  };
  return jsonEqual(asDecoded(strip(a)) ?? {}, asDecoded(strip(b)) ?? {});
}

const created = (o: ReplicaSet) => (o.metadata.creationTimestamp ? Date.parse(o.metadata.creationTimestamp) : 0);

/** Oldest first; ties by name (ReplicaSetsByCreationTimestamp). */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  return created(a) - created(b) || (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0);
}

/** The ReplicaSet whose template is the Deployment's (the oldest such one), if any. */
export function findNewReplicaSet(d: Deployment, rsList: ReplicaSet[]): ReplicaSet | undefined {
  return [...rsList].sort(byCreation).find((rs) => equalIgnoreHash(rsSpecOf(rs).template, dSpec(d).template));
}

export function revisionOf(obj: ReplicaSet, a: DeploymentAnnotations): number {
  const v = obj.metadata.annotations?.[a.revision];
  return v && /^\d+$/.test(v) ? Number(v) : 0;
}

export function maxRevision(rsList: ReplicaSet[], a: DeploymentAnnotations): number {
  return Math.max(0, ...rsList.map((rs) => revisionOf(rs, a)));
}

export function isRollingUpdate(d: Deployment): boolean {
  return (dSpec(d).strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

/** ResolveFenceposts: maxSurge rounded up, maxUnavailable down; both 0 means 1 unavailable. */
export function resolveFenceposts(d: Deployment): { surge: number; unavailable: number } {
  const ru = dSpec(d).strategy?.rollingUpdate;
  const replicas = dReplicas(d);
  const surge = scaledValue(ru?.maxSurge, replicas, true, '25%');
  let unavailable = scaledValue(ru?.maxUnavailable, replicas, false, '25%');
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export function maxSurge(d: Deployment): number {
  return isRollingUpdate(d) ? resolveFenceposts(d).surge : 0;
}

/** MaxUnavailable: never more than the desired replicas; 0 for Recreate. */
export function maxUnavailable(d: Deployment): number {
  if (!isRollingUpdate(d) || dReplicas(d) === 0) return 0;
  return Math.min(resolveFenceposts(d).unavailable, dReplicas(d));
}

/** The sum of spec.replicas. */
export function specReplicas(rsList: ReplicaSet[]): number {
  return rsList.reduce((n, rs) => n + rsReplicas(rs), 0);
}

/** The sum of a status counter. */
export function statusSum(rsList: ReplicaSet[], field: 'replicas' | 'readyReplicas' | 'availableReplicas'): number {
  return rsList.reduce((n, rs) => n + (rs.status?.[field] ?? 0), 0);
}

/** NewRSNewReplicas: how big the new ReplicaSet may be now. */
export function newRSNewReplicas(d: Deployment, allRSs: ReplicaSet[], newRS: ReplicaSet | undefined): number {
  if (!isRollingUpdate(d)) return dReplicas(d);
  const current = newRS ? rsReplicas(newRS) : 0;
  const total = specReplicas(allRSs);
  const maxTotal = dReplicas(d) + maxSurge(d);
  if (total >= maxTotal) return current;
  return current + Math.min(maxTotal - total, dReplicas(d) - current);
}

export function hasProgressDeadline(d: Deployment): boolean {
  const s = dSpec(d).progressDeadlineSeconds;
  return s !== undefined && s !== NO_DEADLINE;
}

/** DeploymentComplete: every replica updated and available, and the latest spec seen. */
export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const r = dReplicas(d);
  return (
    s.updatedReplicas === r && s.replicas === r && s.availableReplicas === r && (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

/** DeploymentProgressing: more Pods updated, ready or available, or fewer old ones, than last time. */
export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const old: DeploymentStatus = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** A timestamp as the API writes it (seconds). */
export function timestamp(ms = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function getCondition(conditions: DeploymentCondition[] | undefined, type: string): DeploymentCondition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function newCondition(type: string, status: string, reason: string, message: string, now = Date.now()): DeploymentCondition {
  const t = timestamp(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

/** SetDeploymentCondition: same status and reason changes nothing; same status keeps the transition time. */
export function setCondition(s: DeploymentStatus, c: DeploymentCondition): void {
  const current = getCondition(s.conditions, c.type);
  if (current && current.status === c.status && current.reason === c.reason) return;
  const next = { ...c };
  if (current && current.status === c.status) next.lastTransitionTime = current.lastTransitionTime;
  s.conditions = [...(s.conditions ?? []).filter((x) => x.type !== c.type), next];
}

export function removeCondition(s: DeploymentStatus, type: string): void {
  if (!s.conditions) return;
  s.conditions = s.conditions.filter((c) => c.type !== type);
}

/** DeploymentTimedOut: Progressing has not been updated for progressDeadlineSeconds. */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, now = Date.now()): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(s.conditions, 'Progressing');
  if (!c) return false;
  if (c.reason === 'NewReplicaSetAvailable') return false;
  if (c.reason === 'ProgressDeadlineExceeded') return true;
  const from = Date.parse(c.lastUpdateTime ?? '');
  return from + (dSpec(d).progressDeadlineSeconds ?? 600) * 1000 < now;
}

/**
 * SetNewReplicaSetAnnotations: the Deployment's own annotations (all but the controller's), the new
 * revision (the old one moves into revision-history), and whether anything changed.
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  newRevision: number,
  domain: ApiDomain,
  a: DeploymentAnnotations,
): boolean {
  const before = { ...rs.metadata.annotations };
  const annotations: Record<string, string> = { ...rs.metadata.annotations };
  const skip = skippedAnnotations(domain, a);
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) if (!skip.has(k)) annotations[k] = v;
  const old = annotations[a.revision];
  const oldNumber = old && /^\d+$/.test(old) ? Number(old) : 0;
  if (oldNumber < newRevision) {
    annotations[a.revision] = String(newRevision);
    if (old) {
      const history = annotations[a.revisionHistory];
      annotations[a.revisionHistory] = history ? `${history},${old}` : old;
    }
  }
  rs.metadata.annotations = annotations;
  return !jsonEqual(before, annotations);
}

/** SetReplicasAnnotations: desired-replicas and max-replicas; whether they changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number, a: DeploymentAnnotations): boolean {
  const ann = rs.metadata.annotations ?? {};
  if (ann[a.desiredReplicas] === String(desired) && ann[a.maxReplicas] === String(max)) return false;
  rs.metadata.annotations = { ...ann, [a.desiredReplicas]: String(desired), [a.maxReplicas]: String(max) };
  return true;
}

/** getReplicaSetFraction + GetProportion: this ReplicaSet's share of a proportional scale. */
export function proportion(rs: ReplicaSet, d: Deployment, toAdd: number, added: number, a: DeploymentAnnotations): number {
  const replicas = rsReplicas(rs);
  if (replicas === 0 || toAdd === 0 || toAdd === added) return 0;
  let fraction: number;
  if (dReplicas(d) === 0) fraction = -replicas;
  else {
    const deploymentReplicas = dReplicas(d) + maxSurge(d);
    const annotated = rs.metadata.annotations?.[a.maxReplicas];
    const base = annotated && /^\d+$/.test(annotated) ? Number(annotated) : (d.status?.replicas ?? 0);
    fraction = base === 0 ? 0 : Math.round((replicas * deploymentReplicas) / base) - replicas;
  }
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}
