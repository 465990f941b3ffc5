/**
 * What the Endpoints and EndpointSlice controllers both do with Pods (Kubernetes' endpoint
 * utilities): the Pods a Service's endpoints list, and the Services a Pod event concerns, queued by
 * their keys.
 */
import type { Pod, Service } from '../../apiserver/api/generated/types.js';
import { jsonEqual } from '../../apiserver/api/object.js';
import { NAMESPACE_INDEX, objectKey } from '../informers/indexer.js';
import type { Informer } from '../informers/informer.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { hasSelector, selectedPods, servicesSelecting, serviceSpec, shouldPodBeInEndpoints } from './service-endpoints.js';

/** The cached Pods of the Service's namespace its selector matches that belong in its endpoints. */
export function endpointPods(svc: Service, pods: Informer<Pod>, includeTerminating: boolean): Pod[] {
  return selectedPods(svc, pods.indexer.byIndex(NAMESPACE_INDEX, svc.metadata.namespace ?? '')).filter((pod) =>
    shouldPodBeInEndpoints(pod, includeTerminating),
  );
}

/**
 * Queues the Services that select a Pod whenever it is added, changed or deleted; when its labels
 * changed, those its old labels selected too (they may have to drop it).
 */
export function enqueueServicesOfPods(pods: Informer<Pod>, services: Informer<Service>, queue: WorkQueue<string>): void {
  const podChanged = (pod: Pod, old?: Pod) => {
    const inNs = services.indexer.byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '');
    const keys = new Set(servicesSelecting(inNs, pod.metadata.labels).map(objectKey));
    if (old) for (const s of servicesSelecting(inNs, old.metadata.labels)) keys.add(objectKey(s));
    for (const k of keys) queue.add(k);
  };
  pods.addEventHandler({
    onAdd: (p) => podChanged(p),
    onUpdate: (old, p) => {
      if (old.metadata.resourceVersion === p.metadata.resourceVersion) return;
      podChanged(p, jsonEqual(old.metadata.labels, p.metadata.labels) ? undefined : old);
    },
    onDelete: (p) => podChanged(p),
  });
}

/** Whether the controllers keep endpoints for the Service: it has a selector naming some label. */
export function selectsPods(svc: Service): boolean {
  return hasSelector(svc) && Object.keys(serviceSpec(svc).selector ?? {}).length > 0;
}
