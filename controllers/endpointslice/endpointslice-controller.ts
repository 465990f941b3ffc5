/**
 * The EndpointSlice controller: every Service with a selector has EndpointSlices (discovery/v1)
 * listing its selected Pods that have an IP, terminating ones included, each with its conditions
 * (ready: serving and not terminating, or always with publishNotReadyAddresses; serving: the Pod is
 * ready; terminating: it is being deleted). Endpoints are grouped by address type and resolved port
 * set, at most 100 per slice; slices are labelled with the Service's name and this controller as
 * their manager, owned by the Service, named `<service>-<random>`. A Service without endpoints keeps
 * one empty placeholder slice. Existing slices are updated in place; surplus ones are deleted.
 */
import type { Pod, Service } from '../../apiserver/api/generated/types.js';
import { isIPv6 } from 'node:net';
import type { ApiObject } from '../../apiserver/api/object.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { GroupVersionResource } from '../client/api-client.js';
import type { Informer } from '../informers/informer.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import { enqueueChanges, runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { newControllerRef } from '../controllerutil/controller-ref.js';
import { SliceOwner } from '../controllerutil/slice-owner.js';
import { type EndpointGroup, type SliceEndpoint, type SlicePort, SliceReconciler } from '../controllerutil/slice-reconciler.js';
import { PODS, SERVICES } from '../controllerutil/resources.js';
import { isPodReady, podNodeName } from '../controllerutil/pod-status.js';
import { findPort, podHostname, podIPs, podTargetRef, serviceSpec } from '../controllerutil/service-endpoints.js';
import { endpointPods, enqueueServicesOfPods, selectsPods } from '../controllerutil/service-pods.js';

export const MAX_ENDPOINTS_PER_SLICE = 100;

export class EndpointSliceController implements Controller {
  readonly services: Informer<Service>;
  readonly pods: Informer<Pod>;
  readonly slices: Informer;
  readonly queue: WorkQueue<string>;
  private readonly reconciler: SliceReconciler;
  readonly gvr: GroupVersionResource;
  private readonly owner: SliceOwner;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: { workers?: number; maxEndpointsPerSlice?: number } = {},
  ) {
    this.owner = new SliceOwner(ctx.domain, 'endpointslice-controller');
    this.gvr = { group: ctx.domain.group('discovery.k8s.io'), version: 'v1', resource: 'endpointslices' };
    this.queue = ctx.newQueue('endpoint_slice');
    this.services = ctx.informers.forResource(SERVICES);
    this.pods = ctx.informers.forResource(PODS);
    this.slices = ctx.informers.forResource(this.gvr);
    this.reconciler = new SliceReconciler(this.slices.indexer, (ns) => ctx.client.resource(this.gvr, ns));
    enqueueChanges(this.services, this.queue);
    enqueueServicesOfPods(this.pods, this.services, this.queue);
    this.owner.enqueueServicesOfSlices(this.slices, this.queue);
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.services, this.pods, this.slices],
      workers: this.opts.workers ?? 5,
      logger: this.ctx.logger,
      failure: 'syncing EndpointSlices',
      itemField: 'service',
    });
  }

  /** The slices this controller manages for the Service named by key. */
  private ownSlices(namespace: string, name: string): ApiObject[] {
    return this.owner.slicesOf(this.slices.indexer, namespace, name).sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
  }

  /** Endpoints grouped by address type and port set. */
  desiredGroups(svc: Service): EndpointGroup[] {
    const spec = serviceSpec(svc);
    const groups = new Map<string, EndpointGroup>();
    for (const pod of endpointPods(svc, this.pods, true)) {
      const ip = podIPs(pod)[0];
      const addressType = isIPv6(ip) ? 'IPv6' : 'IPv4';
      const ports: SlicePort[] = [];
      for (const p of spec.ports ?? []) {
        const port = findPort(pod, p);
        if (port === undefined) continue;
        ports.push({ name: p.name ?? '', port, protocol: p.protocol ?? 'TCP', ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) });
      }
      ports.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.port - b.port));
      const terminating = !!pod.metadata.deletionTimestamp;
      const serving = isPodReady(pod);
      const endpoint: SliceEndpoint = {
        addresses: [ip],
        conditions: { ready: spec.publishNotReadyAddresses === true || (serving && !terminating), serving, terminating },
        targetRef: podTargetRef(pod),
      };
      const node = podNodeName(pod);
      if (node) endpoint.nodeName = node;
      const hostname = podHostname(pod, svc);
      if (hostname) endpoint.hostname = hostname;
      const key = `${addressType}/${JSON.stringify(ports)}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { addressType, ports, endpoints: [] }));
      g.endpoints.push(endpoint);
    }
    for (const g of groups.values()) g.endpoints.sort((a, b) => (a.targetRef!.name! < b.targetRef!.name! ? -1 : 1));
    return [...groups.values()];
  }

  async sync(key: string): Promise<SyncResult | undefined> {
    const [namespace, name] = key.split('/');
    if (this.reconciler.stale(key)) return { requeueAfterMs: 100 };
    const svc = this.services.indexer.get(key);
    const existing = this.ownSlices(namespace, name);
    if (!svc || !selectsPods(svc)) {
      // The Service is gone (its slices are its dependents anyway) or is selector-less.
      await this.reconciler.remove(key, existing);
      return undefined;
    }
    const labels = this.owner.labels(svc.metadata.labels, name);
    if (serviceSpec(svc).clusterIP === 'None') labels[`service.${this.ctx.domain.labelPrefix}/headless`] = '';
    let groups = this.desiredGroups(svc);
    if (groups.length === 0) groups = [{ addressType: 'IPv4', ports: [], endpoints: [] }];
    await this.reconciler.reconcile(existing, {
      key,
      groups,
      labels,
      ownerRef: newControllerRef(svc, 'v1', 'Service'),
      max: this.opts.maxEndpointsPerSlice ?? MAX_ENDPOINTS_PER_SLICE,
    });
    return undefined;
  }
}
