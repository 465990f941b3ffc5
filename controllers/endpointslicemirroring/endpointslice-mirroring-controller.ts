/**
 * The EndpointSlice mirroring controller: a Service without a selector has its Endpoints written by
 * hand; those Endpoints are mirrored into EndpointSlices (ready addresses ready, not-ready ones not,
 * one group per subset and address type, at most 1000 endpoints per slice), labelled with the
 * Service's name and this controller as manager and owned by the Service. Endpoints labelled
 * `endpointslice.<prefix>/skip-mirror: "true"`, and Services with a selector (the endpointslice
 * controller's), are not mirrored; their mirrored slices are removed.
 */
import { isIPv6 } from 'node:net';
import type { EndpointAddress, Endpoints, Service } from '../../apiserver/api/generated/types.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { GroupVersionResource } from '../client/api-client.js';
import type { Informer } from '../informers/informer.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import { enqueueChanges, runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { newControllerRef } from '../controllerutil/controller-ref.js';
import { serviceSpec } from '../controllerutil/service-endpoints.js';
import { SliceOwner } from '../controllerutil/slice-owner.js';
import { type EndpointGroup, type SliceEndpoint, SliceReconciler } from '../controllerutil/slice-reconciler.js';
import { ENDPOINTS, SERVICES } from '../controllerutil/resources.js';

const MAX_ENDPOINTS_PER_SUBSET = 1000;

export class EndpointSliceMirroringController implements Controller {
  readonly services: Informer<Service>;
  readonly endpoints: Informer<Endpoints>;
  readonly slices: Informer;
  readonly queue: WorkQueue<string>;
  readonly gvr: GroupVersionResource;
  private readonly reconciler: SliceReconciler;
  private readonly owner: SliceOwner;
  private readonly skipMirrorLabel: string;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: { workers?: number } = {},
  ) {
    const lp = ctx.domain.labelPrefix;
    this.owner = new SliceOwner(ctx.domain, 'endpointslicemirroring-controller');
    this.skipMirrorLabel = `endpointslice.${lp}/skip-mirror`;
    this.gvr = { group: ctx.domain.group('discovery.k8s.io'), version: 'v1', resource: 'endpointslices' };
    this.queue = ctx.newQueue('endpoint_slice_mirroring');
    this.services = ctx.informers.forResource(SERVICES);
    this.endpoints = ctx.informers.forResource(ENDPOINTS);
    this.slices = ctx.informers.forResource(this.gvr);
    this.reconciler = new SliceReconciler(this.slices.indexer, (ns) => ctx.client.resource(this.gvr, ns));
    enqueueChanges(this.services, this.queue);
    enqueueChanges(this.endpoints, this.queue);
    this.owner.enqueueServicesOfSlices(this.slices, this.queue);
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.services, this.endpoints, this.slices],
      workers: this.opts.workers ?? 5,
      logger: this.ctx.logger,
      failure: 'mirroring Endpoints',
      itemField: 'endpoints',
    });
  }

  /** The endpoint groups an Endpoints object mirrors into. */
  desiredGroups(endpoints: Endpoints): EndpointGroup[] {
    const groups: EndpointGroup[] = [];
    for (const subset of endpoints.subsets ?? []) {
      const ports = (subset.ports ?? []).map((p) => ({
        name: p.name ?? '',
        port: p.port ?? 0,
        protocol: p.protocol ?? 'TCP',
        ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}),
      }));
      const byType = new Map<'IPv4' | 'IPv6', SliceEndpoint[]>();
      const add = (a: EndpointAddress, ready: boolean) => {
        if (!a.ip) return;
        const type = isIPv6(a.ip) ? 'IPv6' : 'IPv4';
        const list = byType.get(type) ?? [];
        if (list.length >= MAX_ENDPOINTS_PER_SUBSET) return;
        const e: SliceEndpoint = { addresses: [a.ip], conditions: { ready } };
        if (a.hostname) e.hostname = a.hostname;
        if (a.nodeName) e.nodeName = a.nodeName;
        if (a.targetRef) e.targetRef = a.targetRef;
        list.push(e);
        byType.set(type, list);
      };
      for (const a of subset.addresses ?? []) add(a, true);
      for (const a of subset.notReadyAddresses ?? []) add(a, false);
      for (const [addressType, list] of byType) groups.push({ addressType, ports, endpoints: list });
    }
    return groups;
  }

  async sync(key: string): Promise<SyncResult | undefined> {
    const [namespace, name] = key.split('/');
    if (this.reconciler.stale(key)) return { requeueAfterMs: 100 };
    const existing = this.owner.slicesOf(this.slices.indexer, namespace, name);
    const svc = this.services.indexer.get(key);
    const ep = this.endpoints.indexer.get(key);
    const selectorLess = !!svc && Object.keys(serviceSpec(svc).selector ?? {}).length === 0;
    if (!svc || !ep || !selectorLess || ep.metadata.labels?.[this.skipMirrorLabel] === 'true') {
      await this.reconciler.remove(key, existing);
      return undefined;
    }
    const labels = this.owner.labels(ep.metadata.labels, name);
    await this.reconciler.reconcile(existing, {
      key,
      groups: this.desiredGroups(ep),
      labels,
      ownerRef: newControllerRef(svc, 'v1', 'Service'),
      max: MAX_ENDPOINTS_PER_SUBSET,
    });
    return undefined;
  }
}
