/**
 * The scale subresource of replicated workloads: read and written as autoscaling/v1 Scale, whose
 * spec.replicas is the object's spec.replicas and whose status carries the observed replicas and the
 * pod selector as a string (what `kubectl scale` and autoscalers use).
 */
import type { ApiObject } from '../api/object.js';
import { deepCopy } from '../api/object.js';
import type { SubresourceStrategy } from '../api/strategy.js';
import { labelSelectorFromObject, type LabelSelectorObject } from '../runtime/selectors/label-selector.js';

interface Replicated {
  spec?: { replicas?: number; selector?: LabelSelectorObject };
  status?: { replicas?: number };
}

export const scaleSubresource: SubresourceStrategy = {
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
        status: { replicas: r.status?.replicas ?? 0, selector: labelSelectorFromObject(r.spec?.selector).toString() },
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
