/**
 * The scale subresource of replicated workloads: read and written as autoscaling/v1 Scale, whose
 * spec.replicas is the object's spec.replicas and whose status carries the observed replicas and the
 * pod selector as a string (what `kubectl scale` and autoscalers use).
 */
import { deepCopy } from '../api/object.js';
import { typedSubresource } from '../api/strategy.js';
import type { Deployment, ReplicaSet, Scale, StatefulSet } from '../api/generated/types.js';
import { labelSelectorFromObject } from '../runtime/selectors/label-selector.js';

/** The kinds served with a scale subresource. */
type Replicated = Deployment | ReplicaSet | StatefulSet;

export const scaleSubresource = typedSubresource<Replicated, Scale>({
  prepareForUpdate: (obj) => obj,
  view: {
    group: 'autoscaling',
    version: 'v1',
    kind: 'Scale',
    schema: 'autoscaling.v1.Scale',
    toView(obj) {
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
        spec: { replicas: obj.spec?.replicas ?? 0 },
        status: { replicas: obj.status?.replicas ?? 0, selector: labelSelectorFromObject(obj.spec?.selector).toString() },
      };
    },
    fromView(view, old) {
      const next = deepCopy(old);
      // A stored object without a spec gets one holding only replicas (validation reports the rest).
      next.spec = { ...next.spec, replicas: view.spec?.replicas ?? 0 } as Replicated['spec'];
      if (view.metadata.resourceVersion) next.metadata.resourceVersion = view.metadata.resourceVersion;
      return next;
    },
  },
});
