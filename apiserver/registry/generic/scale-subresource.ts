/**
 * The scale subresource of replicated workloads: read and written as autoscaling/v1 Scale, whose
 * spec.replicas is the object's spec.replicas and whose status carries the observed replicas and the
 * pod selector as a string (what `kubectl scale` and autoscalers use). apps/v1 workloads select with a
 * LabelSelector, a ReplicationController with a plain label map.
 */
import type { ApiObject } from '../../api/object.js';
import { deepCopy } from '../../api/object.js';
import type { SubresourceStrategy } from '../../api/strategy.js';
import { labelSelectorFromObject, type LabelSelectorObject } from '../../runtime/selectors/label-selector.js';

/** Where a kind keeps what its Scale shows: the wanted and observed replicas and the pod selector. */
export interface ScaleFields {
  replicas(obj: ApiObject): number;
  observedReplicas(obj: ApiObject): number;
  /** The pod selector as a label selector string; empty or undefined when there is none. */
  selector(obj: ApiObject): string | undefined;
  /** Sets the wanted replicas on `obj` (a copy of the stored object). */
  setReplicas(obj: ApiObject, replicas: number): void;
}

/** A scale subresource over the kind's fields; status.selector is omitted when empty (omitempty upstream). */
export function newScaleSubresource(fields: ScaleFields): SubresourceStrategy {
  return {
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
        fields.setReplicas(next, (view.spec as { replicas?: number } | undefined)?.replicas ?? 0);
        if (view.metadata.resourceVersion) next.metadata.resourceVersion = view.metadata.resourceVersion;
        return next;
      },
    },
  };
}

interface Replicated {
  spec?: { replicas?: number; selector?: unknown };
  status?: { replicas?: number };
}

/** A replicated workload's Scale: spec.replicas, status.replicas, and spec.selector as `selectorText` writes it. */
function replicatedScale(selectorText: (selector: unknown) => string): SubresourceStrategy {
  const r = (obj: ApiObject) => obj as ApiObject & Replicated;
  return newScaleSubresource({
    replicas: (obj) => r(obj).spec?.replicas ?? 0,
    observedReplicas: (obj) => r(obj).status?.replicas ?? 0,
    selector: (obj) => selectorText(r(obj).spec?.selector),
    setReplicas(obj, replicas) {
      r(obj).spec = { ...r(obj).spec, replicas };
    },
  });
}

/** apps/v1 workloads: spec.selector is a LabelSelector. */
export const scaleSubresource = replicatedScale((selector) =>
  labelSelectorFromObject(selector as LabelSelectorObject | undefined).toString(),
);

/** ReplicationController: spec.selector is a label map, written `k=v,k2=v2` in key order. */
export const mapSelectorScaleSubresource = replicatedScale((selector) =>
  Object.entries((selector ?? {}) as Record<string, string>)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join(','),
);
