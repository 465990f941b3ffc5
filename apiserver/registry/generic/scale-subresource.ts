/**
 * The scale subresource of replicated workloads: read and written as autoscaling/v1 Scale, whose
 * spec.replicas is the object's spec.replicas and whose status carries the observed replicas and the
 * pod selector as a string (what `kubectl scale` and autoscalers use). apps/v1 workloads select with a
 * LabelSelector, a ReplicationController with a plain label map.
 */
import type { ApiObject } from '../../api/object.js';
import { deepCopy } from '../../api/object.js';
import type { ObjectMeta } from '../../api/object-meta.js';
import { type SubresourceStrategy, typedSubresource } from '../../api/strategy.js';
import type { Scale } from '../../api/generated/types.js';
import { labelSelectorFromObject, type LabelSelectorObject } from '../../runtime/selectors/label-selector.js';

/** Where a kind `T` keeps what its Scale shows: the wanted and observed replicas and the pod selector. */
export interface ScaleFields<T = ApiObject> {
  replicas(obj: T): number;
  observedReplicas(obj: T): number;
  /** The pod selector as a label selector string; empty or undefined when there is none. */
  selector(obj: T): string | undefined;
  /** Sets the wanted replicas on `obj` (a copy of the stored object). */
  setReplicas(obj: T, replicas: number): void;
}

/** A scale subresource over the kind's fields; status.selector is omitted when empty (omitempty upstream). */
export function newScaleSubresource<T extends { metadata: ObjectMeta } = ApiObject>(fields: ScaleFields<T>): SubresourceStrategy {
  return typedSubresource<T, Scale>({
    prepareForUpdate: (obj) => obj,
    view: {
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      schema: 'autoscaling.v1.Scale',
      toView(obj) {
        const m = obj.metadata;
        const selector = fields.selector(obj);
        return {
          kind: 'Scale',
          apiVersion: 'autoscaling/v1',
          metadata: {
            name: m.name,
            namespace: m.namespace,
            uid: m.uid,
            resourceVersion: m.resourceVersion,
            creationTimestamp: m.creationTimestamp,
          },
          spec: { replicas: fields.replicas(obj) },
          status: { replicas: fields.observedReplicas(obj), ...(selector ? { selector } : {}) },
        };
      },
      fromView(view, old) {
        const next = deepCopy(old);
        fields.setReplicas(next, view.spec?.replicas ?? 0);
        if (view.metadata.resourceVersion) next.metadata.resourceVersion = view.metadata.resourceVersion;
        return next;
      },
    },
  });
}

/** A replicated workload whose spec.selector is an `S`. */
interface Replicated<S> {
  metadata: ObjectMeta;
  spec?: { replicas?: number; selector?: S };
  status?: { replicas?: number };
}

/** A replicated workload's Scale: spec.replicas, status.replicas, and spec.selector as `selectorText` writes it. */
function replicatedScale<S>(selectorText: (selector: S | undefined) => string): SubresourceStrategy {
  return newScaleSubresource<Replicated<S>>({
    replicas: (obj) => obj.spec?.replicas ?? 0,
    observedReplicas: (obj) => obj.status?.replicas ?? 0,
    selector: (obj) => selectorText(obj.spec?.selector),
    setReplicas(obj, replicas) {
      obj.spec = { ...obj.spec, replicas };
    },
  });
}

/** apps/v1 workloads: spec.selector is a LabelSelector. */
export const scaleSubresource = replicatedScale<LabelSelectorObject>((selector) => labelSelectorFromObject(selector).toString());

/** ReplicationController: spec.selector is a label map, written `k=v,k2=v2` in key order. */
export const mapSelectorScaleSubresource = replicatedScale<Record<string, string>>((selector) =>
  Object.entries(selector ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join(','),
);
