/**
 * The DaemonSet controller: one Pod per eligible Node — the template's nodeSelector and required node
 * affinity match it and its NoSchedule/NoExecute taints are tolerated (with the tolerations every
 * daemon Pod gets: not-ready, unreachable, disk/memory/pid pressure, unschedulable). Each Pod is
 * pinned to its Node by node affinity on `metadata.name` (the scheduler binds it). Missing Pods are
 * created, Pods on Nodes that are not eligible (or gone), duplicates and failed Pods are deleted.
 * RollingUpdate replaces Pods of an older template (revision = template hash in
 * `controller-revision-hash`) within maxUnavailable, or beside them within maxSurge
 * (rolling-update.ts); OnDelete leaves them. Each template is a ControllerRevision
 * (controllerutil/controller-history.ts), so `rollout history` and `rollout undo` work; at most
 * revisionHistoryLimit revisions no Pod uses are kept. Status counts desired, scheduled,
 * misscheduled, ready, available, unavailable and updated Pods.
 */
import type { DaemonSet, DaemonSetSpec, Node, Pod } from '../../apiserver/api/generated/types.js';
import { jsonEqual } from '../../apiserver/api/object.js';
import { labelSelectorFromObject, type LabelSelector } from '../../apiserver/runtime/selectors/label-selector.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { EventRecorder } from '../events/event-recorder.js';
import { objectReference } from '../events/event-recorder.js';
import type { Informer } from '../informers/informer.js';
import { NAMESPACE_INDEX, objectKey } from '../informers/indexer.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import { enqueueControllers, runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import {
  claimObjects,
  controllerRefOf,
  ensureControllerIndex,
  newControllerRef,
  readFromServer,
  resolveControllerRef,
} from '../controllerutil/controller-ref.js';
import { CONTROLLERREVISIONS, DAEMONSETS, NODES, PODS } from '../controllerutil/resources.js';
import { ControllerHistory, DEFAULT_REVISION_HISTORY_LIMIT, REVISION_LABEL } from '../controllerutil/controller-history.js';
import { Expectations } from '../controllerutil/expectations.js';
import { updateStatusFromCache } from '../controllerutil/update-status.js';
import { type PodSchedulingSpec, podFitsNode, type Toleration } from '../controllerutil/node-eligibility.js';
import { PodControl } from '../controllerutil/pod-control.js';
import { isPodAvailable, isPodReady, podNodeName, podStatus } from '../controllerutil/pod-status.js';
import { podFromTemplate } from '../controllerutil/pod-template.js';
import { computeHash } from '../controllerutil/template-hash.js';
import { allowsSurge, excessPods, rollingUpdate } from './rolling-update.js';
import { messageOf } from '../../apiserver/api/thrown.js';

/** The spec as this controller reads it: `selector` and `template` are required, but a missing one is still checked for. */
const dsSpec = (ds: DaemonSet): Partial<DaemonSetSpec> => ds.spec ?? {};

/** Daemon Pods oldest first, bound ones before unbound ones, by name when created in the same second (podByCreationTimestampAndPhase). */
function oldestFirst(a: Pod, b: Pod): number {
  const bound = Number(!podNodeName(a)) - Number(!podNodeName(b));
  if (bound !== 0) return bound;
  return (
    (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
    (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '')
  );
}

/** The Node a daemon Pod is for: its nodeName, else its node affinity on metadata.name. */
export function targetNode(pod: Pod): string | undefined {
  const bound = podNodeName(pod);
  if (bound) return bound;
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const t of terms)
    for (const f of t.matchFields ?? []) if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
  return undefined;
}

export class DaemonSetController implements Controller {
  readonly sets: Informer<DaemonSet>;
  readonly pods: Informer<Pod>;
  readonly nodes: Informer<Node>;
  readonly history: ControllerHistory;
  readonly queue: WorkQueue<string>;
  readonly expectations = new Expectations();
  private readonly recorder: EventRecorder;
  private readonly podControl: PodControl;
  private readonly defaultTolerations: Toleration[];

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: { workers?: number } = {},
  ) {
    const p = `node.${ctx.domain.labelPrefix}`;
    this.defaultTolerations = [
      { key: `${p}/not-ready`, operator: 'Exists', effect: 'NoExecute' },
      { key: `${p}/unreachable`, operator: 'Exists', effect: 'NoExecute' },
      { key: `${p}/disk-pressure`, operator: 'Exists', effect: 'NoSchedule' },
      { key: `${p}/memory-pressure`, operator: 'Exists', effect: 'NoSchedule' },
      { key: `${p}/pid-pressure`, operator: 'Exists', effect: 'NoSchedule' },
      { key: `${p}/unschedulable`, operator: 'Exists', effect: 'NoSchedule' },
    ];
    this.queue = ctx.newQueue('daemonset');
    this.recorder = ctx.recorder('daemonset-controller');
    this.podControl = new PodControl(ctx.client, this.recorder);
    this.sets = ctx.informers.forResource(DAEMONSETS);
    this.pods = ctx.informers.forResource(PODS);
    this.nodes = ctx.informers.forResource(NODES);
    ensureControllerIndex(this.pods.indexer);
    this.history = new ControllerHistory(ctx.client, ctx.informers.forResource(CONTROLLERREVISIONS), {
      resource: DAEMONSETS,
      kind: 'DaemonSet',
      hashLabel: REVISION_LABEL,
      hash: (ds, _data, collisionCount) => computeHash(ds.spec?.template, collisionCount),
    });
    enqueueControllers(this.sets, this.queue, this.expectations);
    const owner = (pod: Pod) => {
      const ds = resolveControllerRef(this.sets.indexer, pod.metadata.namespace, controllerRefOf(pod), 'DaemonSet');
      return ds ? objectKey(ds) : undefined;
    };
    this.pods.addEventHandler({
      onAdd: (pod) => {
        const key = owner(pod);
        if (!key) return;
        this.expectations.creationObserved(key);
        this.queue.add(key);
      },
      onUpdate: (old, pod) => {
        const key = old.metadata.resourceVersion !== pod.metadata.resourceVersion && owner(pod);
        if (!key) return;
        this.queue.add(key);
        // Available minReadySeconds after turning ready, with no event then: look again (a second late, past clock skew).
        const minReady = dsSpec(this.sets.indexer.get(key)!).minReadySeconds ?? 0;
        if (minReady > 0 && !isPodReady(old) && isPodReady(pod)) this.queue.addAfter(key, (minReady + 1) * 1000);
      },
      onDelete: (pod) => {
        const key = owner(pod);
        if (!key) return;
        this.expectations.deletionObserved(key, objectKey(pod));
        this.queue.add(key);
      },
    });
    const everySet = () => {
      for (const ds of this.sets.indexer.list()) this.queue.add(objectKey(ds));
    };
    this.nodes.addEventHandler({
      onAdd: everySet,
      onUpdate: (old, node) => {
        if (!jsonEqual(old.metadata.labels, node.metadata.labels) || !jsonEqual(old.spec, node.spec)) everySet();
      },
      onDelete: everySet,
    });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.sets, this.pods, this.nodes, this.history.informer],
      workers: this.opts.workers ?? 2,
      logger: this.ctx.logger,
      failure: 'syncing a DaemonSet',
      itemField: 'daemonset',
    });
  }

  /** The template's scheduling spec with the daemon tolerations added. */
  private schedulingSpec(ds: DaemonSet): PodSchedulingSpec {
    const spec: PodSchedulingSpec = dsSpec(ds).template?.spec ?? {};
    const own = spec.tolerations ?? [];
    const extra = this.defaultTolerations.filter((d) => !own.some((t) => t.key === d.key && t.effect === d.effect));
    return { ...spec, tolerations: [...own, ...extra] };
  }

  async sync(key: string): Promise<SyncResult | undefined> {
    const ds = this.sets.indexer.get(key);
    if (!ds) {
      this.expectations.delete(key);
      return undefined;
    }
    let selector: LabelSelector;
    try {
      selector = labelSelectorFromObject(dsSpec(ds).selector);
    } catch (err) {
      this.ctx.logger.warn('DaemonSet has an invalid selector', { daemonset: key, error: messageOf(err) });
      return undefined;
    }
    // Expectations first, the Pod cache after: once they are met the cache holds every Pod change they
    // waited for (upstream reads the Pods in manage, after SatisfiedExpectations). Checked after the
    // reads below, a deletion seen meanwhile would pass with the deleted Pod still in the list.
    const needsSync = this.expectations.satisfied(key) && !ds.metadata.deletionTimestamp;
    const ns = ds.metadata.namespace ?? '';
    const recheckOwner = readFromServer(this.ctx.client.resource(DAEMONSETS, ns), ds.metadata.name!);
    const pods = await claimObjects(this.pods.indexer.byIndex(NAMESPACE_INDEX, ns), {
      owner: ds,
      ownerRef: newControllerRef(ds, 'apps/v1', 'DaemonSet'),
      selector,
      resource: this.ctx.client.resource(PODS, ns),
      recheckOwner,
    });
    const revisions = await this.history.sync(ds, await this.history.owned(ds, selector, recheckOwner));
    const revision = revisions.update.metadata.labels![REVISION_LABEL];
    const sched = this.schedulingSpec(ds);
    const nodes = this.nodes.indexer.list();
    // A new daemon Pod needs a Node whose NoSchedule and NoExecute taints it tolerates; one that runs
    // already stays unless a NoExecute taint turns it away (nodeShouldRunDaemonPod).
    const eligible = new Set(nodes.filter((n) => podFitsNode(sched, n)).map((n) => n.metadata.name!));
    const keep = new Set(nodes.filter((n) => podFitsNode(sched, n, ['NoExecute'])).map((n) => n.metadata.name!));
    const byNode = new Map<string, Pod[]>();
    for (const pod of pods) {
      const node = targetNode(pod) ?? '';
      byNode.set(node, [...(byNode.get(node) ?? []), pod]);
    }
    const now = Date.now();
    const minReady = dsSpec(ds).minReadySeconds ?? 0;
    if (needsSync) {
      const surge = allowsSurge(dsSpec(ds).updateStrategy);
      const create: string[] = [];
      const remove: Pod[] = [];
      for (const node of eligible) {
        const live = (byNode.get(node) ?? []).filter((p) => !p.metadata.deletionTimestamp);
        const failed = live.filter((p) => podStatus(p).phase === 'Failed');
        remove.push(...failed);
        const running = live.filter((p) => podStatus(p).phase !== 'Failed').sort(oldestFirst);
        if (running.length === 0 && failed.length === 0) create.push(node);
        remove.push(...excessPods(running, revision, surge, minReady, now));
      }
      for (const [node, list] of byNode)
        if (!eligible.has(node) && !keep.has(node)) remove.push(...list.filter((p) => !p.metadata.deletionTimestamp));
      const removed = new Set(remove);
      const remaining = new Map(
        [...byNode].map(([node, list]) => [node, list.filter((p) => !p.metadata.deletionTimestamp && !removed.has(p))] as const),
      );
      const update = rollingUpdate({
        strategy: dsSpec(ds).updateStrategy,
        eligible,
        byNode: remaining,
        hash: revision,
        minReadySeconds: minReady,
        now,
      });
      remove.push(...update.remove.filter((p) => !removed.has(p)));
      await this.manage(key, ds, [...create, ...update.create.filter((n) => !create.includes(n))], remove, revision);
    }
    const status = await this.updateStatus(ds, eligible, byNode, revision, now, minReady);
    const live = new Set([revisions.update.metadata.name!]);
    for (const pod of pods) live.add(`${ds.metadata.name}-${pod.metadata.labels?.[REVISION_LABEL]}`);
    await this.history.truncate(revisions.revisions, live, dsSpec(ds).revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT);
    // Resync after minReadySeconds while Pods are ready but not available, against clock skew.
    if (minReady > 0 && status.numberReady !== status.numberAvailable) return { requeueAfterMs: minReady * 1000 };
    return undefined;
  }

  private async manage(key: string, ds: DaemonSet, nodes: string[], remove: Pod[], revision: string): Promise<void> {
    if (nodes.length === 0 && remove.length === 0) return;
    const ref = objectReference(ds, 'apps/v1', 'DaemonSet');
    this.expectations.expect(key, nodes.length, remove.map(objectKey));
    const results = await Promise.allSettled([
      ...nodes.map((node) => this.podControl.createExpected(this.newPod(ds, node, revision), ref, this.expectations, key)),
      ...remove.map((pod) => this.podControl.deleteExpected(pod, ref, this.expectations, key)),
    ]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private newPod(ds: DaemonSet, node: string, revision: string): Pod {
    const pod = podFromTemplate(
      dsSpec(ds).template ?? {},
      ds.metadata.namespace ?? '',
      ds.metadata.name!,
      newControllerRef(ds, 'apps/v1', 'DaemonSet'),
    );
    pod.metadata.labels = { ...pod.metadata.labels, [REVISION_LABEL]: revision };
    const spec = pod.spec;
    spec.tolerations = this.schedulingSpec(ds).tolerations;
    spec.affinity = {
      ...(spec.affinity ?? {}),
      nodeAffinity: {
        ...(spec.affinity?.nodeAffinity ?? {}),
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
        },
      },
    };
    return pod;
  }

  private async updateStatus(
    ds: DaemonSet,
    eligible: Set<string>,
    byNode: Map<string, Pod[]>,
    revision: string,
    now: number,
    minReady: number,
  ): Promise<{ numberReady: number; numberAvailable: number }> {
    let scheduled = 0;
    let misscheduled = 0;
    let ready = 0;
    let available = 0;
    let updated = 0;
    for (const [node, list] of byNode) {
      const live = list.filter((p) => !p.metadata.deletionTimestamp);
      if (live.length === 0) continue;
      if (!eligible.has(node)) {
        misscheduled++;
        continue;
      }
      scheduled++;
      const pod = [...live].sort(oldestFirst)[0];
      if (isPodReady(pod)) ready++;
      if (isPodAvailable(pod, minReady, now)) available++;
      if (pod.metadata.labels?.[REVISION_LABEL] === revision) updated++;
    }
    const status = {
      currentNumberScheduled: scheduled,
      numberMisscheduled: misscheduled,
      desiredNumberScheduled: eligible.size,
      numberReady: ready,
      observedGeneration: ds.metadata.generation,
      updatedNumberScheduled: updated,
      numberAvailable: available,
      numberUnavailable: eligible.size - available,
    };
    const old: Record<string, unknown> = { ...ds.status };
    const previous = Object.fromEntries(Object.entries(old).filter(([k]) => k in status && old[k] !== 0));
    const wanted = Object.fromEntries(Object.entries(status).filter(([, v]) => v !== 0));
    if (jsonEqual(previous, wanted)) return status;
    await updateStatusFromCache(this.ctx.client.resource(DAEMONSETS, ds.metadata.namespace), ds, (current) => ({
      ...current.status,
      ...status,
    }));
    return status;
  }
}
