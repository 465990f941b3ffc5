/**
 * The scale subresource of replicated workloads: read and written as autoscaling/v1 Scale, whose
 * spec.replicas is the object's spec.replicas and whose status carries the observed replicas and the
 * pod selector as a string (what `kubectl scale` and autoscalers use). apps/v1 workloads select with a
 * LabelSelector, a ReplicationController with a plain label map.
 */
import type { ApiObject } from '../api/object.js';
import { deepCopy } from '../api/object.js';
import type { SubresourceStrategy } from '../api/strategy.js';
import { labelSelectorFromObject, type LabelSelectorObject } from '../runtime/selectors/label-selector.js';

interface Replicated {
  spec?: { replicas?: number; selector?: unknown };
  status?: { replicas?: number };
}

/** The scale subresource of a kind whose spec.selector reads as `selectorText` gives it. */
export function newScaleSubresource(selectorText: (selector: unknown) => string): SubresourceStrategy {
  return {
    prepareForUpdate: (obj) => obj,
    view: {
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      schema: 'autoscaling.v1.Scale',
      toView(obj) {
        const r = obj as ApiObject & Replicated;
        const m = obj.metadata;
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
          spec: { replicas: r.spec?.replicas ?? 0 },
          status: { replicas: r.status?.replicas ?? 0, selector: selectorText(r.spec?.selector) },
        };
      },
      fromView(view, old) {
        const next = deepCopy(old) as ApiObject & Replicated;
        next.spec = { ...next.spec, replicas: (view.spec as { replicas?: number } | undefined)?.replicas ?? 0 };
        if (view.metadata.resourceVersion) next.metadata.resourceVersion = view.metadata.resourceVersion;
        return next;
      },
    },
  };
}

/** apps/v1 workloads: spec.selector is a LabelSelector. */
export const scaleSubresource = newScaleSubresource((selector) =>
  labelSelectorFromObject(selector as LabelSelectorObject | undefined).toString(),
);

/** ReplicationController: spec.selector is a label map, written `k=v,k2=v2` in key order. */
export const mapSelectorScaleSubresource = newScaleSubresource((selector) =>
  Object.entries((selector ?? {}) as Record<string, string>)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join(','),
);
