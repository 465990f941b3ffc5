/**
 * The pod garbage collector, every 20 s: terminated Pods (Succeeded or Failed) beyond
 * --terminated-pod-gc-threshold (12500) are deleted, oldest first; Pods bound to a Node that no
 * longer exists (and was not seen again after a 40 s quarantine) are marked Failed with a
 * DisruptionTarget condition and deleted; unscheduled Pods that are being deleted are deleted at once
 * (no kubelet will ever confirm them).
 */
import type { Node, Pod, PodStatus } from '../../apiserver/api/generated/types.js';
import { deepCopy } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import { runPeriodically } from '../controllerutil/run-controller.js';
import type { Informer } from '../informers/informer.js';
import { NODES, PODS } from '../controllerutil/resources.js';
import { podNodeName, podStatus } from '../controllerutil/pod-status.js';

const GC_CHECK_PERIOD_MS = 20_000;
const QUARANTINE_MS = 40_000;

export interface PodGcOptions {
  terminatedPodThreshold?: number;
  periodMs?: number;
  quarantineMs?: number;
  now?: () => number;
}

const timestamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export class PodGcController implements Controller {
  readonly pods: Informer<Pod>;
  readonly nodes: Informer<Node>;
  /** Nodes found missing, and since when (the quarantine). */
  private readonly missingSince = new Map<string, number>();

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: PodGcOptions = {},
  ) {
    this.pods = ctx.informers.forResource(PODS);
    this.nodes = ctx.informers.forResource(NODES);
  }

  run(signal: AbortSignal): Promise<void> {
    return runPeriodically(signal, {
      informers: [this.pods, this.nodes],
      periodMs: this.opts.periodMs ?? GC_CHECK_PERIOD_MS,
      pass: () => this.gc(),
      logger: this.ctx.logger,
      failure: 'pod garbage collection',
    });
  }

  /** One pass. */
  async gc(): Promise<void> {
    const pods = this.pods.indexer.list();
    await this.gcTerminated(pods);
    await this.gcOrphaned(pods);
    await this.gcUnscheduledTerminating(pods);
  }

  private async gcTerminated(pods: Pod[]): Promise<void> {
    const threshold = this.opts.terminatedPodThreshold ?? 12_500;
    if (threshold <= 0) return;
    const terminated = pods.filter((p) => ['Succeeded', 'Failed'].includes(podStatus(p).phase ?? '') && !p.metadata.deletionTimestamp);
    const excess = terminated.length - threshold;
    if (excess <= 0) return;
    const created = (p: Pod) => Date.parse(p.metadata.creationTimestamp ?? '') || 0;
    terminated.sort((a, b) => created(a) - created(b));
    for (const pod of terminated.slice(0, excess)) await this.forceDelete(pod);
  }

  private async gcOrphaned(pods: Pod[]): Promise<void> {
    const now = this.opts.now?.() ?? Date.now();
    const quarantine = this.opts.quarantineMs ?? QUARANTINE_MS;
    const missing = new Set<string>();
    for (const pod of pods) {
      const node = podNodeName(pod);
      if (node && !this.nodes.indexer.get(node)) missing.add(node);
    }
    for (const node of this.missingSince.keys()) if (!missing.has(node)) this.missingSince.delete(node);
    for (const node of missing) if (!this.missingSince.has(node)) this.missingSince.set(node, now);
    for (const pod of pods) {
      const node = podNodeName(pod);
      if (!node || !missing.has(node) || now - this.missingSince.get(node)! < quarantine) continue;
      // A Node that came back since the last look keeps its Pods.
      if (await this.nodeExists(node)) {
        this.missingSince.delete(node);
        missing.delete(node);
        continue;
      }
      await this.markFailed(pod, 'DeletionByPodGC', 'PodGC: node no longer exists');
      await this.forceDelete(pod);
    }
  }

  private async gcUnscheduledTerminating(pods: Pod[]): Promise<void> {
    for (const pod of pods) if (pod.metadata.deletionTimestamp && !podNodeName(pod)) await this.forceDelete(pod);
  }

  private async nodeExists(name: string): Promise<boolean> {
    try {
      await this.ctx.client.resource(NODES).get(name);
      return true;
    } catch (err) {
      if (isApiError(err, 'NotFound')) return false;
      throw err;
    }
  }

  /** Kubernetes marks a non-terminal Pod it is about to remove Failed, with the DisruptionTarget condition. */
  private async markFailed(pod: Pod, reason: string, message: string): Promise<void> {
    const phase = podStatus(pod).phase;
    if (phase === 'Succeeded' || phase === 'Failed') return;
    const next = deepCopy(pod);
    const status: PodStatus = next.status ?? {};
    status.phase = 'Failed';
    status.conditions = [
      ...(status.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget'),
      { type: 'DisruptionTarget', status: 'True', reason, message, lastTransitionTime: timestamp(Date.now()) },
    ];
    next.status = status;
    try {
      await this.ctx.client.resource(PODS, pod.metadata.namespace).update(next, 'status');
    } catch (err) {
      if (!isApiError(err, 'NotFound') && !isApiError(err, 'Conflict')) throw err;
    }
  }

  private async forceDelete(pod: Pod): Promise<void> {
    try {
      await this.ctx.client
        .resource(PODS, pod.metadata.namespace)
        .delete(pod.metadata.name!, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } });
    } catch (err) {
      if (!isApiError(err, 'NotFound') && !isApiError(err, 'Conflict')) throw err;
    }
  }
}
