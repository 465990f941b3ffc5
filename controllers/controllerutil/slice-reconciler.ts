/**
 * Writing a Service's EndpointSlices, shared by the endpointslice and endpointslice-mirroring
 * controllers: desired endpoint groups (address type + ports) are cut into slices of at most `max`
 * endpoints; existing slices with the same address type and ports are updated in place, missing ones
 * created (`<service>-<random>`, owned by the Service), surplus ones deleted. The slices each
 * controller wrote are tracked until its cache shows them, so a sync on a stale cache waits instead
 * of writing duplicates (Kubernetes' EndpointSliceTracker).
 */
import type { ApiObject } from '../../apiserver/api/object.js';
import { deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import type { OwnerReference } from '../../apiserver/api/object-meta.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { ResourceClient } from '../client/api-client.js';
import { hasStatusCause, NAMESPACE_TERMINATING_CAUSE } from '../client/api-errors.js';
import type { Indexer } from '../informers/indexer.js';

export interface SlicePort {
  name: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

export interface SliceEndpoint {
  addresses: string[];
  conditions: { ready: boolean; serving?: boolean; terminating?: boolean };
  targetRef?: { kind?: string; namespace?: string; name?: string; uid?: string };
  nodeName?: string;
  hostname?: string;
}

export interface EndpointGroup {
  addressType: 'IPv4' | 'IPv6';
  ports: SlicePort[];
  endpoints: SliceEndpoint[];
}

export interface DesiredSlices {
  /** The Service's namespace/name (the tracking key). */
  key: string;
  groups: EndpointGroup[];
  labels: Record<string, string>;
  ownerRef: OwnerReference;
  max: number;
}

export class SliceReconciler {
  /** Per Service: slice name → generation written, or 'deleted'. */
  private readonly written = new Map<string, Map<string, number | 'deleted'>>();

  constructor(
    private readonly cache: Indexer,
    private readonly client: (namespace: string) => ResourceClient,
  ) {}

  /** Whether the cache has not yet seen every slice written for this Service. */
  stale(key: string): boolean {
    const mine = this.written.get(key);
    if (!mine) return false;
    const namespace = key.split('/')[0];
    for (const [slice, gen] of mine) {
      const cached = this.cache.get(`${namespace}/${slice}`);
      const seen = gen === 'deleted' ? !cached : !!cached && (cached.metadata.generation ?? 0) >= gen;
      if (seen) mine.delete(slice);
    }
    if (mine.size === 0) this.written.delete(key);
    return mine.size > 0;
  }

  private track(key: string, slice: ApiObject | string): void {
    let mine = this.written.get(key);
    if (!mine) this.written.set(key, (mine = new Map()));
    if (typeof slice === 'string') mine.set(slice, 'deleted');
    else mine.set(slice.metadata.name!, slice.metadata.generation ?? 0);
  }

  /** Brings `existing` (the Service's slices managed by the caller) to `desired`. */
  async reconcile(existing: ApiObject[], desired: DesiredSlices): Promise<void> {
    const [namespace, name] = desired.key.split('/');
    const client = this.client(namespace);
    const unused = new Set(existing);
    for (const g of desired.groups) {
      const chunks: SliceEndpoint[][] = [];
      for (let i = 0; i < g.endpoints.length; i += desired.max) chunks.push(g.endpoints.slice(i, i + desired.max));
      if (chunks.length === 0) chunks.push([]);
      const matching = existing.filter((s) => unused.has(s) && s.addressType === g.addressType && jsonEqual(s.ports ?? [], g.ports));
      for (const [i, endpoints] of chunks.entries()) {
        const current = matching[i];
        if (current) {
          unused.delete(current);
          if (jsonEqual(current.endpoints ?? [], endpoints) && jsonEqual(current.metadata.labels, desired.labels)) continue;
          const next = deepCopy(current);
          next.endpoints = endpoints;
          next.metadata.labels = desired.labels;
          try {
            this.track(desired.key, await client.update(next));
          } catch (err) {
            if (!isApiError(err, 'NotFound')) throw err;
          }
          continue;
        }
        try {
          const created = await client.create({
            metadata: { generateName: `${name}-`, namespace, labels: desired.labels, ownerReferences: [desired.ownerRef] },
            addressType: g.addressType,
            endpoints,
            ports: g.ports,
          });
          this.track(desired.key, created);
        } catch (err) {
          if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
          throw err;
        }
      }
    }
    await this.remove(desired.key, [...unused]);
  }

  /** Deletes slices (uid precondition); ones already gone are no error. */
  async remove(key: string, slices: ApiObject[]): Promise<void> {
    const client = this.client(key.split('/')[0]);
    for (const slice of slices) {
      try {
        await client.delete(slice.metadata.name!, { preconditions: { uid: slice.metadata.uid } });
        this.track(key, slice.metadata.name!);
      } catch (err) {
        if (!isApiError(err, 'NotFound') && !isApiError(err, 'Conflict')) throw err;
      }
    }
  }
}
