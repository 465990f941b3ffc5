/**
 * Which EndpointSlices a controller manages, shared by the endpointslice and endpointslice-mirroring
 * controllers: a slice names its Service in `<prefix>/service-name` and its manager in
 * `endpointslice.<prefix>/managed-by` (`<controller>.<domain>`); each controller reads and writes only
 * the slices that name it.
 */
import type { ApiDomain } from '../../apiserver/api/domain.js';
import type { ApiObject } from '../../apiserver/api/object.js';
import { type Indexer, NAMESPACE_INDEX } from '../informers/indexer.js';
import type { Informer } from '../informers/informer.js';
import type { WorkQueue } from '../workqueue/work-queue.js';

export class SliceOwner {
  private readonly serviceNameLabel: string;
  private readonly managedByLabel: string;
  private readonly managedBy: string;

  /** @param controller the manager's name, e.g. "endpointslice-controller". */
  constructor(domain: ApiDomain, controller: string) {
    this.serviceNameLabel = `${domain.labelPrefix}/service-name`;
    this.managedByLabel = `endpointslice.${domain.labelPrefix}/managed-by`;
    this.managedBy = `${controller}.${domain.domain}`;
  }

  /** The labels of a slice this controller writes for the Service `name`: `base` and the two. */
  labels(base: Record<string, string> | undefined, name: string): Record<string, string> {
    return { ...base, [this.serviceNameLabel]: name, [this.managedByLabel]: this.managedBy };
  }

  /** The cached slices this controller manages for the Service namespace/name, in cache order. */
  slicesOf(cache: Indexer, namespace: string, name: string): ApiObject[] {
    return cache.byIndex(NAMESPACE_INDEX, namespace).filter((s) => this.serviceOf(s) === name);
  }

  /** Queues the Service (namespace/name) of every slice this controller manages that is updated or deleted. */
  enqueueServicesOfSlices(slices: Informer, queue: WorkQueue<string>): void {
    const changed = (s: ApiObject) => {
      const svc = this.serviceOf(s);
      if (svc) queue.add(`${s.metadata.namespace}/${svc}`);
    };
    slices.addEventHandler({ onUpdate: (_o, s) => changed(s), onDelete: changed });
  }

  /** The name of the Service a slice belongs to, when this controller manages it. */
  private serviceOf(slice: ApiObject): string | undefined {
    const labels = slice.metadata.labels;
    return labels?.[this.managedByLabel] === this.managedBy ? labels[this.serviceNameLabel] : undefined;
  }
}
