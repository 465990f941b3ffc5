/**
 * pods/eviction (policy/v1 Eviction, Kubernetes' EvictionREST): deletes the pod, with the DeleteOptions
 * the Eviction carries, when its PodDisruptionBudget allows a disruption — taking one from the budget's
 * status (as stored: the disruption controller maintains it) — and answers 429 with Kubernetes' message
 * and cause when it does not. Pods that are not running (pending, finished, being deleted) are deleted
 * without asking a budget; a pod with more than one budget is refused.
 */
import { asApiObject, asKind } from '../../../api/object.js';
import { NULL_TIME, timestamp } from '../../../api/object-meta.js';
import * as status from '../../../api/status.js';
import type { SubresourceStrategy } from '../../../api/strategy.js';
import type { Eviction, Pod, PodDisruptionBudget } from '../../../api/generated/types.js';
import { labelSelectorFromObject } from '../../../runtime/selectors/label-selector.js';
import { successStatus, type StoreAction } from '../../generic/actions.js';
import type { DeleteOptions } from '../../generic/delete-options.js';
import type { ObjectStore } from '../../generic/object-store.js';
import type { RequestContext } from '../../generic/request-context.js';

/** The pods/eviction subresource: create only, performed by evictPodAction. */
export const podEvictionSubresource: SubresourceStrategy = {
  verbs: ['create'],
  action: { group: 'policy', version: 'v1', kind: 'Eviction', schema: 'policy.v1.Eviction' },
  prepareForUpdate: (obj) => obj,
};

/** Kubernetes' MaxDisruptedPodSize. */
const MAX_DISRUPTED_PODS = 2000;
const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";
const PDB_GR = { group: 'policy', resource: 'poddisruptionbudget' };

function tooManyRequests(retryAfterSeconds: number, cause: string): status.ApiError {
  const e = status.tooManyRequests(VIOLATION, retryAfterSeconds);
  e.status.details = { ...(retryAfterSeconds ? { retryAfterSeconds } : {}), causes: [{ reason: 'DisruptionBudget', message: cause }] };
  return e;
}

/** The pod runs (or may): only then does a budget have a say (canIgnorePDB). */
function canIgnoreBudget(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata.deletionTimestamp;
}

function isReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The budgets of the pod's namespace whose selector selects it. */
async function budgetsOf(pdbs: ObjectStore, ctx: RequestContext, pod: Pod): Promise<PodDisruptionBudget[]> {
  const list = await pdbs.list(ctx);
  return list.items
    .map((o) => asKind<PodDisruptionBudget>(o))
    .filter((pdb) => {
      try {
        return labelSelectorFromObject(pdb.spec?.selector).matches(pod.metadata.labels ?? {});
      } catch {
        return false;
      }
    });
}

/** checkAndDecrement on the stored budget: one disruption taken, the pod recorded as disrupted. */
function takeDisruption(pdb: PodDisruptionBudget, podName: string, now: Date): PodDisruptionBudget {
  const s = pdb.status ?? { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 };
  const name = pdb.metadata.name ?? '';
  if ((s.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) {
    throw tooManyRequests(10, `The disruption budget ${name} is still being processed by the server.`);
  }
  if (s.disruptionsAllowed < 0) throw status.forbidden(PDB_GR, name, 'pdb disruptions allowed is negative');
  if (Object.keys(s.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS) {
    throw status.forbidden(PDB_GR, name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (s.disruptionsAllowed === 0) {
    throw tooManyRequests(0, `The disruption budget ${name} needs ${s.desiredHealthy} healthy pods and has ${s.currentHealthy} currently`);
  }
  s.disruptionsAllowed--;
  if (s.disruptionsAllowed === 0) {
    // UpdateDisruptionAllowedCondition → SetStatusCondition.
    const conditions = (s.conditions ??= []);
    const old = conditions.find((c) => c.type === 'DisruptionAllowed');
    const next = { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: old?.message ?? '' };
    if (!old) conditions.push({ ...next, lastTransitionTime: timestamp(now) });
    else Object.assign(old, next, old.status === 'False' ? {} : { lastTransitionTime: timestamp(now) });
  }
  s.disruptedPods = { ...s.disruptedPods, [podName]: timestamp(now) };
  pdb.status = s;
  return pdb;
}

/** addConditionAndDeletePod: the DisruptionTarget condition (PodDisruptionConditions), then the delete. */
async function markAndDelete(pods: ObjectStore, ctx: RequestContext, name: string, options: DeleteOptions): Promise<void> {
  if (!ctx.dryRun) {
    const { object } = await pods.update(
      ctx,
      name,
      (current) => {
        if (!current) throw status.notFound(pods.groupResource, name);
        const p = options.preconditions;
        const gr = { group: '', resource: 'Pod' };
        if (p?.uid && p.uid !== current.metadata.uid) {
          throw status.conflict(
            gr,
            name,
            `the UID in the precondition (${p.uid}) does not match the UID in record (${current.metadata.uid}). The object might have been deleted and then recreated`,
          );
        }
        if (p?.resourceVersion && p.resourceVersion !== current.metadata.resourceVersion) {
          throw status.conflict(
            gr,
            name,
            `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion}). The object might have been modified`,
          );
        }
        const pod = asKind<Pod>(current);
        pod.status ??= {};
        const conditions = (pod.status.conditions ??= []);
        const condition = {
          type: 'DisruptionTarget',
          status: 'True',
          reason: 'EvictionByEvictionAPI',
          message: 'Eviction API: evicting',
          lastProbeTime: NULL_TIME,
          lastTransitionTime: timestamp(ctx.now),
        };
        const old = conditions.find((c) => c.type === 'DisruptionTarget');
        if (!old) conditions.push(condition);
        else Object.assign(old, condition, old.status === 'True' ? { lastTransitionTime: old.lastTransitionTime } : {});
        return current;
      },
      { subresource: 'status' },
    );
    if (options.preconditions?.resourceVersion)
      options = { ...options, preconditions: { ...options.preconditions, resourceVersion: object.metadata.resourceVersion } };
  }
  await pods.delete(ctx, name, options);
}

export const evictPodAction: StoreAction = {
  async run(stores, requestCtx, name, body) {
    const eviction: Eviction = body;
    if (name !== (eviction.metadata?.name ?? '')) throw status.badRequest('name in URL does not match name in Eviction object');
    const original = { ...(eviction.deleteOptions ?? {}) } as DeleteOptions;
    const ctx = { ...requestCtx, dryRun: requestCtx.dryRun || (original.dryRun ?? []).includes('All') };
    const pods = stores.store('', 'v1', 'pods');
    const pdbs = stores.store('policy', 'v1', 'poddisruptionbudgets');

    const pod = asKind<Pod>(await pods.get(ctx, name));
    if (canIgnoreBudget(pod)) {
      const finished = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed' || !!pod.metadata.deletionTimestamp;
      const options =
        !finished && !original.preconditions?.resourceVersion
          ? { ...original, preconditions: { ...original.preconditions, resourceVersion: pod.metadata.resourceVersion } }
          : original;
      await markAndDelete(pods, ctx, name, options);
      return successStatus(201);
    }

    const budgets = await budgetsOf(pdbs, ctx, pod);
    if (budgets.length > 1) {
      return {
        code: 500,
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
          code: 500,
        },
      };
    }
    let unhealthyAllowed = false;
    if (budgets.length === 1) {
      const pdb = budgets[0];
      const s = pdb.status;
      if (
        !isReady(pod) &&
        (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow' ||
          ((s?.currentHealthy ?? 0) >= (s?.desiredHealthy ?? 0) && (s?.desiredHealthy ?? 0) > 0))
      ) {
        unhealthyAllowed = true;
      } else if (ctx.dryRun) {
        takeDisruption(structuredClone(pdb), name, ctx.now);
      } else {
        await pdbs.update(
          ctx,
          pdb.metadata.name ?? '',
          (current) => {
            if (!current) throw status.notFound(pdbs.groupResource, pdb.metadata.name ?? '');
            return asApiObject(takeDisruption(asKind<PodDisruptionBudget>(current), name, ctx.now));
          },
          { subresource: 'status' },
        );
      }
    }
    const options = unhealthyAllowed
      ? { ...original, preconditions: { ...original.preconditions, resourceVersion: pod.metadata.resourceVersion } }
      : original;
    try {
      await markAndDelete(pods, ctx, name, options);
    } catch (err) {
      if (unhealthyAllowed && status.isApiError(err, 'Conflict') && !original.preconditions?.resourceVersion) {
        throw tooManyRequests(10, `The disruption budget ${budgets[0].metadata.name} is still being processed by the server.`);
      }
      throw err;
    }
    return successStatus(201);
  },
};
