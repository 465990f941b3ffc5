/**
 * The Endpoints controller: every Service with a selector has an Endpoints object of the same name
 * listing the selected Pods that have an IP — ready ones under `addresses`, the others under
 * `notReadyAddresses` (all ready with publishNotReadyAddresses) — for each Service port resolved on
 * the Pod (named target ports through the containers' ports); the API server packs them into its
 * canonical subsets. Headless Services without ports list addresses without ports. The Endpoints
 * carry the Service's labels (plus `service.<prefix>/headless` for headless Services); at most 1000
 * addresses are kept, the rest truncated with the over-capacity annotation. A deleted Service's
 * Endpoints are deleted; selector-less Services' Endpoints are left to their users.
 */
import type { EndpointAddress, Endpoints, EndpointSubset, Pod, Service } from '../../apiserver/api/generated/types.js';
import { deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import { hasStatusCause, NAMESPACE_TERMINATING_CAUSE } from '../client/api-errors.js';
import type { Informer } from '../informers/informer.js';
import { objectKey } from '../informers/indexer.js';
import { enqueueChanges, runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { ENDPOINTS, PODS, SERVICES } from '../controllerutil/resources.js';
import { isPodReady, podNodeName } from '../controllerutil/pod-status.js';
import { findPort, podHostname, podIPs, podTargetRef, serviceSpec } from '../controllerutil/service-endpoints.js';
import { endpointPods, enqueueServicesOfPods, selectsPods } from '../controllerutil/service-pods.js';

/**
 * What subsets say, independent of how they are grouped: one sorted line per (address, readiness,
 * port). The API server stores subsets repacked into its canonical grouping; comparing content this
 * way tells whether an update is needed without a second copy of that packing.
 */
export function subsetContent(subsets: EndpointSubset[] | undefined): string[] {
  const lines: string[] = [];
  for (const s of subsets ?? []) {
    const ports = s.ports?.length ? s.ports : [undefined];
    for (const port of ports) {
      const p = JSON.stringify(port ? [port.name ?? '', port.port, port.protocol ?? 'TCP', port.appProtocol ?? ''] : null);
      const line = (a: EndpointAddress, ready: boolean) =>
        JSON.stringify([a.ip, a.hostname ?? '', a.nodeName ?? '', a.targetRef?.uid ?? '', a.targetRef?.name ?? '', ready, p]);
      for (const a of s.addresses ?? []) lines.push(line(a, true));
      for (const a of s.notReadyAddresses ?? []) lines.push(line(a, false));
    }
  }
  return lines.sort();
}

/** Endpoints hold at most this many addresses. */
export const MAX_ENDPOINTS_CAPACITY = 1000;

export class EndpointsController implements Controller {
  readonly services: Informer<Service>;
  readonly pods: Informer<Pod>;
  readonly endpoints: Informer<Endpoints>;
  readonly queue: WorkQueue<string>;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: { workers?: number } = {},
  ) {
    this.queue = ctx.newQueue('endpoint');
    this.services = ctx.informers.forResource(SERVICES);
    this.pods = ctx.informers.forResource(PODS);
    this.endpoints = ctx.informers.forResource(ENDPOINTS);
    enqueueChanges(this.services, this.queue);
    enqueueServicesOfPods(this.pods, this.services, this.queue);
    this.endpoints.addEventHandler({ onDelete: (ep) => this.queue.add(objectKey(ep)) });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.services, this.pods, this.endpoints],
      workers: this.opts.workers ?? 5,
      logger: this.ctx.logger,
      failure: 'syncing Endpoints',
      itemField: 'service',
    });
  }

  /** The subsets a Service's Pods give. */
  desiredSubsets(svc: Service): EndpointSubset[] {
    const spec = serviceSpec(svc);
    const publishNotReady = spec.publishNotReadyAddresses === true;
    const subsets: EndpointSubset[] = [];
    for (const pod of endpointPods(svc, this.pods, publishNotReady)) {
      const address: EndpointAddress = { ip: podIPs(pod)[0], targetRef: podTargetRef(pod) };
      const node = podNodeName(pod);
      if (node) address.nodeName = node;
      const hostname = podHostname(pod, svc);
      if (hostname) address.hostname = hostname;
      const ready = publishNotReady || isPodReady(pod);
      const entry = (ports?: EndpointSubset['ports']): EndpointSubset => ({
        ...(ready ? { addresses: [address] } : { notReadyAddresses: [address] }),
        ...(ports ? { ports } : {}),
      });
      if (!spec.ports?.length) {
        if (spec.clusterIP === 'None') subsets.push(entry());
        continue;
      }
      for (const port of spec.ports) {
        const target = findPort(pod, port);
        if (target === undefined) continue;
        subsets.push(
          entry([
            {
              ...(port.name ? { name: port.name } : {}),
              port: target,
              protocol: port.protocol ?? 'TCP',
              ...(port.appProtocol ? { appProtocol: port.appProtocol } : {}),
            },
          ]),
        );
      }
    }
    return subsets;
  }

  async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/');
    const client = this.ctx.client.resource(ENDPOINTS, namespace);
    const svc = this.services.indexer.get(key);
    if (!svc) {
      try {
        if (this.endpoints.indexer.get(key)) await client.delete(name);
      } catch (err) {
        if (!isApiError(err, 'NotFound')) throw err;
      }
      return;
    }
    if (!selectsPods(svc)) return;
    let subsets = this.desiredSubsets(svc);
    const annotations: Record<string, string> = {};
    const overCapacityAnnotation = `endpoints.${this.ctx.domain.labelPrefix}/over-capacity`;
    const total = new Set(subsets.map((s) => (s.addresses ?? s.notReadyAddresses ?? [])[0]?.targetRef?.uid)).size;
    if (total > MAX_ENDPOINTS_CAPACITY) {
      subsets = truncate(subsets, MAX_ENDPOINTS_CAPACITY);
      annotations[overCapacityAnnotation] = 'truncated';
    }
    const labels: Record<string, string> = { ...svc.metadata.labels };
    if (serviceSpec(svc).clusterIP === 'None') labels[`service.${this.ctx.domain.labelPrefix}/headless`] = '';
    const current = this.endpoints.indexer.get(key);
    if (current) {
      const currentAnnotations = { ...current.metadata.annotations };
      const hadOverCapacity = overCapacityAnnotation in currentAnnotations;
      delete currentAnnotations[overCapacityAnnotation];
      const wanted = { ...currentAnnotations, ...annotations };
      if (
        jsonEqual(subsetContent(current.subsets), subsetContent(subsets)) &&
        jsonEqual(current.metadata.labels ?? {}, labels) &&
        hadOverCapacity === overCapacityAnnotation in annotations
      )
        return;
      const next = deepCopy(current);
      next.subsets = subsets;
      next.metadata.labels = labels;
      next.metadata.annotations = wanted;
      try {
        await client.update(next);
      } catch (err) {
        if (!isApiError(err, 'NotFound')) throw err;
      }
      return;
    }
    try {
      await client.create({ metadata: { name, labels, ...(Object.keys(annotations).length ? { annotations } : {}) }, subsets });
    } catch (err) {
      if (isApiError(err, 'AlreadyExists') || hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
      throw err;
    }
  }
}

/** Keeps `max` Pods' addresses, ready ones first. */
function truncate(subsets: EndpointSubset[], max: number): EndpointSubset[] {
  const uid = (s: EndpointSubset) => (s.addresses ?? s.notReadyAddresses ?? [])[0]?.targetRef?.uid ?? '';
  const kept = new Set<string>();
  for (const s of [...subsets].sort((a, b) => Number(!a.addresses) - Number(!b.addresses))) {
    if (kept.size >= max && !kept.has(uid(s))) continue;
    kept.add(uid(s));
  }
  return subsets.filter((s) => kept.has(uid(s)));
}
