/**
 * The disruption controller: keeps every PodDisruptionBudget's status, which the eviction
 * subresource consults. For the Pods its selector matches (an empty selector matches all of the
 * namespace), expectedPods is their number with an integer minAvailable, otherwise the sum of the
 * scales of their controllers (ReplicaSets — a Deployment's when it owns one —, StatefulSets);
 * desiredHealthy is minAvailable, or its percentage of expectedPods rounded up, or expectedPods less
 * maxUnavailable (a percentage rounded up); currentHealthy counts the ready Pods not being deleted
 * nor recently evicted (disruptedPods, forgotten after 2 minutes); disruptionsAllowed is the surplus.
 * The DisruptionAllowed condition says True/SufficientPods, False/InsufficientPods, or
 * False/SyncFailed with the reason (e.g. a Pod without a controller under a percentage budget).
 */
import type {
  Deployment,
  Pod,
  PodDisruptionBudget,
  PodDisruptionBudgetStatus,
  ReplicaSet,
  StatefulSet,
} from '../../apiserver/api/generated/types.js';
import type { KindObject } from '../../apiserver/api/object.js';
import { deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import { labelSelectorFromObject } from '../../apiserver/runtime/selectors/label-selector.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { Informer } from '../informers/informer.js';
import { NAMESPACE_INDEX, objectKey } from '../informers/indexer.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import { enqueueChanges, runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { controllerRefOf } from '../controllerutil/controller-ref.js';
import { DEPLOYMENTS, PODDISRUPTIONBUDGETS, PODS, REPLICASETS, STATEFULSETS } from '../controllerutil/resources.js';
import { isPodReady } from '../controllerutil/pod-status.js';
import { scaledValue } from '../controllerutil/int-or-percent.js';
import { messageOf } from '../../apiserver/api/thrown.js';

/** An evicted Pod counts as disrupted this long, unless its deletion is seen first. */
const DISRUPTED_POD_TIMEOUT_MS = 2 * 60_000;

/** What a scaled controller (ReplicaSet, Deployment, StatefulSet) says of its size. */
type Scaled = KindObject & { spec?: { replicas?: number } };

const timestamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function percent(v: number | string | undefined): number | undefined {
  const m = typeof v === 'string' ? /^(\d+)%$/.exec(v) : null;
  return m ? Number(m[1]) : undefined;
}

export class DisruptionController implements Controller {
  readonly pdbs: Informer<PodDisruptionBudget>;
  readonly pods: Informer<Pod>;
  readonly replicaSets: Informer<ReplicaSet>;
  readonly deployments: Informer<Deployment>;
  readonly statefulSets: Informer<StatefulSet>;
  readonly queue: WorkQueue<string>;
  readonly gvr = PODDISRUPTIONBUDGETS;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: { workers?: number; now?: () => number } = {},
  ) {
    this.queue = ctx.newQueue('disruption');
    this.pdbs = ctx.informers.forResource(this.gvr);
    this.pods = ctx.informers.forResource(PODS);
    this.replicaSets = ctx.informers.forResource(REPLICASETS);
    this.deployments = ctx.informers.forResource(DEPLOYMENTS);
    this.statefulSets = ctx.informers.forResource(STATEFULSETS);
    enqueueChanges(this.pdbs, this.queue, { deletes: false });
    const byPod = (pod: Pod) => {
      for (const pdb of this.pdbsFor(pod)) this.queue.add(objectKey(pdb));
    };
    this.pods.addEventHandler({
      onAdd: byPod,
      onUpdate: (old, pod) => {
        if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
        byPod(pod);
        if (!jsonEqual(old.metadata.labels, pod.metadata.labels)) byPod(old);
      },
      onDelete: byPod,
    });
    // A controller's scale decides expectedPods: look again at the budgets of its namespace.
    const byNamespace = (obj: KindObject) => {
      for (const pdb of this.pdbs.indexer.byIndex(NAMESPACE_INDEX, obj.metadata.namespace ?? '')) this.queue.add(objectKey(pdb));
    };
    const onScale = <T extends Scaled>(i: Informer<T>) =>
      i.addEventHandler({
        onUpdate: (old, obj) => {
          if (old.spec?.replicas !== obj.spec?.replicas) byNamespace(obj);
        },
      });
    onScale(this.replicaSets);
    onScale(this.deployments);
    onScale(this.statefulSets);
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  private pdbsFor(pod: Pod): PodDisruptionBudget[] {
    return this.pdbs.indexer.byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '').filter((pdb) => {
      try {
        return labelSelectorFromObject(pdb.spec?.selector).matches(pod.metadata.labels ?? {});
      } catch {
        return false;
      }
    });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.pdbs, this.pods, this.replicaSets, this.deployments, this.statefulSets],
      workers: this.opts.workers ?? 2,
      logger: this.ctx.logger,
      failure: 'syncing a PodDisruptionBudget',
      itemField: 'pdb',
    });
  }

  /** The scale of the controller that owns the Pod (a Deployment's for its ReplicaSets), with its uid. */
  private controllerScale(pod: Pod): { uid: string; scale: number } | undefined {
    const ns = pod.metadata.namespace ?? '';
    const ref = controllerRefOf(pod);
    if (!ref) return undefined;
    const replicas = (o: Scaled) => o.spec?.replicas ?? 1;
    if (ref.kind === 'ReplicaSet') {
      const rs = this.replicaSets.indexer.get(`${ns}/${ref.name}`);
      if (!rs || rs.metadata.uid !== ref.uid) return undefined;
      const owner = controllerRefOf(rs);
      if (owner?.kind === 'Deployment') {
        const d = this.deployments.indexer.get(`${ns}/${owner.name}`);
        if (d && d.metadata.uid === owner.uid) return { uid: d.metadata.uid!, scale: replicas(d) };
      }
      return { uid: rs.metadata.uid!, scale: replicas(rs) };
    }
    if (ref.kind === 'StatefulSet') {
      const s = this.statefulSets.indexer.get(`${ns}/${ref.name}`);
      return s && s.metadata.uid === ref.uid ? { uid: s.metadata.uid!, scale: replicas(s) } : undefined;
    }
    return undefined;
  }

  async sync(key: string): Promise<SyncResult | undefined> {
    const pdb = this.pdbs.indexer.get(key);
    if (!pdb) return undefined;
    const spec = pdb.spec ?? {};
    const now = this.now();
    const old = pdb.status;
    let pods: Pod[] = [];
    let failure: string | undefined;
    try {
      const selector = labelSelectorFromObject(spec.selector);
      pods = this.pods.indexer
        .byIndex(NAMESPACE_INDEX, pdb.metadata.namespace ?? '')
        .filter((p) => selector.matches(p.metadata.labels ?? {}));
    } catch (err) {
      failure = messageOf(err);
    }
    let expected = 0;
    let desired = 0;
    if (!failure) {
      if (spec.maxUnavailable !== undefined || percent(spec.minAvailable) !== undefined) {
        const scales = new Map<string, number>();
        for (const pod of pods) {
          const c = this.controllerScale(pod);
          if (!c) {
            failure = `found no controllers for pod "${pod.metadata.name}"`;
            break;
          }
          scales.set(c.uid, c.scale);
        }
        expected = [...scales.values()].reduce((n, s) => n + s, 0);
        desired =
          spec.maxUnavailable !== undefined
            ? Math.max(0, expected - scaledValue(spec.maxUnavailable, expected, true))
            : scaledValue(spec.minAvailable, expected, true);
      } else {
        expected = pods.length;
        desired = scaledValue(spec.minAvailable, expected, true);
      }
    }
    // Evictions not yet seen as deletions stay counted as disrupted for a while.
    const disrupted: Record<string, string> = {};
    let nextExpiry: number | undefined;
    for (const [name, at] of Object.entries(old?.disruptedPods ?? {})) {
      const pod = pods.find((p) => p.metadata.name === name);
      const expires = Date.parse(at) + DISRUPTED_POD_TIMEOUT_MS;
      if (!pod || pod.metadata.deletionTimestamp || expires <= now) continue;
      disrupted[name] = at;
      nextExpiry = Math.min(nextExpiry ?? expires, expires);
    }
    const healthy = pods.filter((p) => isPodReady(p) && !p.metadata.deletionTimestamp && !(p.metadata.name! in disrupted)).length;
    const allowed = failure ? 0 : Math.max(0, healthy - desired);
    const previous = old?.conditions?.find((c) => c.type === 'DisruptionAllowed');
    const [condStatus, reason, message] = failure
      ? ['False', 'SyncFailed', failure]
      : allowed > 0
        ? ['True', 'SufficientPods', '']
        : ['False', 'InsufficientPods', ''];
    const condition = {
      type: 'DisruptionAllowed',
      status: condStatus,
      reason,
      message,
      observedGeneration: pdb.metadata.generation,
      lastTransitionTime: previous?.status === condStatus ? (previous.lastTransitionTime ?? timestamp(now)) : timestamp(now),
    };
    const status: PodDisruptionBudgetStatus = {
      observedGeneration: pdb.metadata.generation,
      disruptionsAllowed: allowed,
      currentHealthy: failure ? 0 : healthy,
      desiredHealthy: failure ? 0 : desired,
      expectedPods: failure ? 0 : expected,
      conditions: [...(old?.conditions ?? []).filter((c) => c.type !== 'DisruptionAllowed'), condition],
    };
    if (Object.keys(disrupted).length) status.disruptedPods = disrupted;
    if (!jsonEqual(status, old)) {
      const next = deepCopy(pdb);
      next.status = status;
      try {
        await this.ctx.client.resource(this.gvr, pdb.metadata.namespace).update(next, 'status');
      } catch (err) {
        if (!isApiError(err, 'NotFound')) throw err;
      }
    }
    return nextExpiry !== undefined ? { requeueAfterMs: nextExpiry - now } : undefined;
  }
}
