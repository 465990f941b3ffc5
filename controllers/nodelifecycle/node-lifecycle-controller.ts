/**
 * The node lifecycle controller, every 5 s: a Node is alive while its kubelet renews its Lease (in
 * `<prefix>-node-lease`) or posts status. One silent for longer than the grace period (40 s) gets
 * its Ready condition (and the pressure conditions it has) set to Unknown — "Kubelet stopped posting
 * node status." — and its Pods marked not ready. Taints follow the conditions: Ready False →
 * `node.<prefix>/not-ready`, Unknown → `node.<prefix>/unreachable` (NoSchedule and NoExecute),
 * memory/disk/PID pressure, network-unavailable and `spec.unschedulable` → their NoSchedule taints;
 * taints whose condition cleared are removed. Freshness is judged by when this controller saw the
 * Lease or heartbeat change, not by the kubelet's clock.
 *
 * NoExecute taints are not added at once: each Node waits in its zone's rate-limited queue
 * (zone-eviction.ts: --node-eviction-rate, --secondary-node-eviction-rate, --unhealthy-zone-threshold,
 * --large-cluster-size-threshold), and when every zone has lost all its Nodes none is tainted.
 *
 * Pods bound to a Node with a NoExecute taint they do not tolerate (or tolerate only for
 * tolerationSeconds, now passed) are evicted: marked with the DisruptionTarget condition and deleted
 * (the taint manager).
 */
import type { Lease, Node, NodeCondition, NodeStatus, Pod, PodStatus, Taint } from '../../apiserver/api/generated/types.js';
import { deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import { runPeriodically } from '../controllerutil/run-controller.js';
import type { Informer } from '../informers/informer.js';
import { NODES, PODS } from '../controllerutil/resources.js';
import { resourceOf } from '../client/api-client.js';
import { isPodReady, podNodeName, podStatus } from '../controllerutil/pod-status.js';
import type { EventRecorder } from '../events/event-recorder.js';
import { objectReference } from '../events/event-recorder.js';
import { evictionTime } from './taint-eviction.js';
import { DEFAULT_EVICTION_RATES, type EvictionRates, ZoneEviction, zoneKey } from './zone-eviction.js';

const MONITOR_PERIOD_MS = 5_000;
const GRACE_PERIOD_MS = 40_000;

type Condition = NodeCondition;

/** What one pass learnt of a Node: its latest object, its conditions and its zone. */
interface Observed {
  node: Node;
  conditions: Condition[];
  zone: string;
}

const timestamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export interface NodeLifecycleOptions {
  gracePeriodMs?: number;
  periodMs?: number;
  now?: () => number;
  rates?: EvictionRates;
}

export class NodeLifecycleController implements Controller {
  readonly nodes: Informer<Node>;
  readonly leases: Informer<Lease>;
  readonly pods: Informer<Pod>;
  private readonly leaseNamespace: string;
  private readonly recorder: EventRecorder;
  private readonly taintPrefix: string;
  /** Per Node: the last heartbeat and lease renewal seen, and when (this controller's clock). */
  private readonly health = new Map<string, { heartbeat?: string; renew?: string; probedAt: number }>();
  private readonly zones: ZoneEviction;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: NodeLifecycleOptions = {},
  ) {
    this.leaseNamespace = ctx.domain.nodeLeaseNamespace;
    this.taintPrefix = `node.${ctx.domain.labelPrefix}`;
    this.recorder = ctx.recorder('node-controller');
    this.nodes = ctx.informers.forResource(NODES);
    this.leases = ctx.informers.forResource(resourceOf<Lease>(ctx.domain.group('coordination.k8s.io'), 'v1', 'leases'));
    this.pods = ctx.informers.forResource(PODS);
    this.zones = new ZoneEviction(opts.rates ?? DEFAULT_EVICTION_RATES);
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  run(signal: AbortSignal): Promise<void> {
    return runPeriodically(signal, {
      informers: [this.nodes, this.leases, this.pods],
      periodMs: this.opts.periodMs ?? MONITOR_PERIOD_MS,
      pass: () => this.monitor(),
      logger: this.ctx.logger,
      failure: 'monitoring node health',
    });
  }

  /** One pass over every Node. */
  async monitor(): Promise<void> {
    const now = this.now();
    const observed = new Map<string, Observed>();
    for (const node of this.nodes.indexer.list()) observed.set(node.metadata.name!, await this.monitorNode(node, now));
    for (const name of this.health.keys()) if (!observed.has(name)) this.health.delete(name);
    await this.handleDisruption(observed, now);
    await this.noExecuteTaintingPass(observed, now);
    await this.evictFromTaintedNodes(now);
  }

  /** handleDisruption: zone states and rates; all zones down lifts the NoExecute taints, recovery restarts the grace periods. */
  private async handleDisruption(observed: Map<string, Observed>, now: number): Promise<void> {
    const zones = new Map<string, (string | undefined)[]>();
    for (const o of observed.values())
      zones.set(o.zone, [...(zones.get(o.zone) ?? []), o.conditions.find((c) => c.type === 'Ready')?.status]);
    const mode = this.zones.update(zones);
    if (mode === 'enter') {
      this.ctx.logger.info('all Nodes are not ready: entering master disruption mode, no NoExecute taints');
      for (const o of observed.values()) {
        this.zones.tainter(o.zone).remove(o.node.metadata.name!);
        await this.reconcileTaints(o.node, o.conditions, now, 'lift');
      }
    } else if (mode === 'exit') {
      this.ctx.logger.info('some Nodes are ready: exiting master disruption mode');
      for (const h of this.health.values()) h.probedAt = now;
    }
  }

  /** doNoExecuteTaintingPass: the Nodes whose turn has come in their zone get their NoExecute taint. */
  private async noExecuteTaintingPass(observed: Map<string, Observed>, now: number): Promise<void> {
    for (const [zone, tainter] of this.zones.tainters) {
      for (const name of tainter.take(now)) {
        const o = observed.get(name);
        if (!o || o.zone !== zone) continue;
        if (!(await this.reconcileTaints(o.node, o.conditions, now, 'add'))) tainter.add(name);
      }
    }
  }

  /** The taint manager: Pods on Nodes with NoExecute taints they do not (or no longer) tolerate go. */
  private async evictFromTaintedNodes(now: number): Promise<void> {
    for (const pod of this.pods.indexer.list()) {
      const nodeName = podNodeName(pod);
      if (!nodeName || pod.metadata.deletionTimestamp || ['Succeeded', 'Failed'].includes(podStatus(pod).phase ?? '')) continue;
      const node = this.nodes.indexer.get(nodeName);
      if (!node) continue;
      const at = evictionTime(pod, node, now);
      if (at === undefined || at > now) continue;
      const next = deepCopy(pod);
      const status: PodStatus = next.status ?? {};
      status.conditions = [
        ...(status.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget'),
        {
          type: 'DisruptionTarget',
          status: 'True',
          reason: 'DeletionByTaintManager',
          message: 'Taint manager: deleting due to NoExecute taint',
          lastTransitionTime: timestamp(now),
        },
      ];
      next.status = status;
      const pods = this.ctx.client.resource(PODS, pod.metadata.namespace);
      try {
        await pods.update(next, 'status');
        await pods.delete(pod.metadata.name!, { preconditions: { uid: pod.metadata.uid } });
        this.recorder.event(
          objectReference(pod, 'v1', 'Pod'),
          'Normal',
          'TaintManagerEviction',
          'Evict',
          `Marking for deletion Pod ${pod.metadata.namespace}/${pod.metadata.name}`,
        );
      } catch (err) {
        if (!isApiError(err, 'NotFound') && !isApiError(err, 'Conflict')) throw err;
      }
    }
  }

  private async monitorNode(cached: Node, now: number): Promise<Observed> {
    const name = cached.metadata.name!;
    const node = deepCopy(cached);
    const status: NodeStatus = node.status ?? {};
    const ready = status.conditions?.find((c) => c.type === 'Ready');
    const lease = this.leases.indexer.get(`${this.leaseNamespace}/${name}`);
    const renew = lease?.spec?.renewTime;
    const seen = this.health.get(name);
    if (!seen || seen.heartbeat !== ready?.lastHeartbeatTime || seen.renew !== renew) {
      this.health.set(name, { heartbeat: ready?.lastHeartbeatTime, renew, probedAt: now });
    }
    const probedAt = this.health.get(name)!.probedAt;
    const grace = this.opts.gracePeriodMs ?? GRACE_PERIOD_MS;
    let statusChanged = false;
    if (now > probedAt + grace) {
      const t = timestamp(now);
      if (!ready) {
        status.conditions = [
          ...(status.conditions ?? []),
          {
            type: 'Ready',
            status: 'Unknown',
            reason: 'NodeStatusNeverUpdated',
            message: 'Kubelet never posted node status.',
            lastHeartbeatTime: timestamp(this.creation(node)),
            lastTransitionTime: t,
          },
        ];
        statusChanged = true;
      }
      for (const c of status.conditions ?? []) {
        if (!['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'].includes(c.type) || c.status === 'Unknown') continue;
        c.status = 'Unknown';
        c.reason = 'NodeStatusUnknown';
        c.message = 'Kubelet stopped posting node status.';
        c.lastTransitionTime = t;
        statusChanged = true;
      }
    }
    if (statusChanged) {
      node.status = status;
      try {
        const updated = await this.ctx.client.resource(NODES).update(node, 'status');
        node.metadata.resourceVersion = updated.metadata.resourceVersion;
      } catch (err) {
        if (isApiError(err, 'NotFound') || isApiError(err, 'Conflict')) return this.observed(cached, status.conditions ?? []);
        throw err;
      }
      await this.markPodsNotReady(name, now);
    }
    await this.reconcileTaints(node, status.conditions ?? [], now, 'queue');
    return this.observed(node, status.conditions ?? []);
  }

  private observed(node: Node, conditions: Condition[]): Observed {
    return { node, conditions, zone: zoneKey(node, this.ctx.domain.labelPrefix) };
  }

  private creation(node: Node): number {
    return Date.parse(node.metadata.creationTimestamp ?? '') || this.now();
  }

  /** The taints the Node's conditions and spec call for. */
  wantedTaints(node: Node, conditions: Condition[]): Taint[] {
    const p = this.taintPrefix;
    const out: Taint[] = [];
    const ready = conditions.find((c) => c.type === 'Ready')?.status;
    if (ready === 'False') out.push({ key: `${p}/not-ready`, effect: 'NoSchedule' }, { key: `${p}/not-ready`, effect: 'NoExecute' });
    if (ready === 'Unknown') out.push({ key: `${p}/unreachable`, effect: 'NoSchedule' }, { key: `${p}/unreachable`, effect: 'NoExecute' });
    const byCondition: Record<string, string> = {
      MemoryPressure: 'memory-pressure',
      DiskPressure: 'disk-pressure',
      PIDPressure: 'pid-pressure',
      NetworkUnavailable: 'network-unavailable',
    };
    for (const c of conditions)
      if (byCondition[c.type] && c.status === 'True') out.push({ key: `${p}/${byCondition[c.type]}`, effect: 'NoSchedule' });
    if (node.spec?.unschedulable) out.push({ key: `${p}/unschedulable`, effect: 'NoSchedule' });
    return out;
  }

  /**
   * Brings the Node's taints to what its conditions call for, except a NoExecute taint it does not
   * have yet: `queue` puts the Node in its zone's queue for it, `add` (its turn came) adds it, `lift`
   * (master disruption) removes any. A NoExecute taint of the other kind is swapped at once. True when
   * the taints are as wanted (written, or already so).
   */
  private async reconcileTaints(node: Node, conditions: Condition[], now: number, noExecute: 'queue' | 'add' | 'lift'): Promise<boolean> {
    const current = node.spec?.taints ?? [];
    const mine = (t: Taint) => t.key.startsWith(`${this.taintPrefix}/`);
    let wanted = this.wantedTaints(node, conditions);
    const tainter = this.zones.tainter(zoneKey(node, this.ctx.domain.labelPrefix));
    const hasNoExecute = current.some((t) => mine(t) && t.effect === 'NoExecute');
    if (noExecute === 'lift' || !wanted.some((t) => t.effect === 'NoExecute')) tainter.remove(node.metadata.name!);
    if (noExecute === 'lift' || (noExecute === 'queue' && !hasNoExecute)) {
      if (noExecute === 'queue' && wanted.some((t) => t.effect === 'NoExecute')) tainter.add(node.metadata.name!);
      wanted = wanted.filter((t) => t.effect !== 'NoExecute');
    }
    const same = (a: Taint, b: Taint) => a.key === b.key && a.effect === b.effect;
    const kept = current.filter((t) => !mine(t) || wanted.some((w) => same(w, t)));
    const added = wanted
      .filter((w) => !current.some((t) => same(w, t)))
      .map((w) => (w.effect === 'NoExecute' ? { ...w, timeAdded: timestamp(now) } : w));
    const next = [...kept, ...added];
    if (jsonEqual(next, current)) return true;
    const patch = { spec: { taints: next.length ? next : null }, metadata: { resourceVersion: node.metadata.resourceVersion } };
    try {
      const updated = await this.ctx.client.resource(NODES).patch(node.metadata.name!, patch);
      if (updated.metadata?.resourceVersion) node.metadata.resourceVersion = updated.metadata.resourceVersion;
      node.spec = { ...(node.spec ?? {}), taints: next };
      return true;
    } catch (err) {
      if (!isApiError(err, 'NotFound') && !isApiError(err, 'Conflict')) throw err;
      return false;
    }
  }

  /** MarkPodsNotReady: the Node's Pods lose Ready, as nobody vouches for them any more. */
  private async markPodsNotReady(nodeName: string, now: number): Promise<void> {
    for (const pod of this.pods.indexer.list()) {
      if (podNodeName(pod) !== nodeName || !isPodReady(pod)) continue;
      const next = deepCopy(pod);
      const status: PodStatus = next.status ?? {};
      status.conditions = (status.conditions ?? []).map((c) =>
        c.type === 'Ready' ? { ...c, status: 'False', lastTransitionTime: timestamp(now) } : c,
      );
      next.status = status;
      try {
        await this.ctx.client.resource(PODS, pod.metadata.namespace).update(next, 'status');
      } catch (err) {
        if (!isApiError(err, 'NotFound') && !isApiError(err, 'Conflict')) throw err;
      }
    }
  }
}
