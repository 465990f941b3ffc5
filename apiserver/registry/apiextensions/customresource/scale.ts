/**
 * A custom resource's scale subresource: autoscaling/v1 Scale read from and written to the paths its
 * CRD names (specReplicasPath, statusReplicasPath, labelSelectorPath), as Kubernetes' CR scale REST does.
 */
import type { CustomResourceSubresourceScale } from '../../../api/generated/types.js';
import type { ApiObject } from '../../../api/object.js';
import { deepCopy } from '../../../api/object.js';
import type { SubresourceStrategy } from '../../../api/strategy.js';
import { parseJsonPath, valueAt } from './columns.js';

function setAt(obj: Record<string, unknown>, steps: readonly (string | number)[], value: unknown): void {
  let v: Record<string | number, unknown> = obj;
  for (const step of steps.slice(0, -1)) {
    if (typeof v[step] !== 'object' || v[step] === null) v[step] = {};
    v = v[step] as Record<string | number, unknown>;
  }
  v[steps[steps.length - 1]] = value;
}

export function customResourceScale(scale: CustomResourceSubresourceScale): SubresourceStrategy {
  const spec = parseJsonPath(scale.specReplicasPath) ?? [];
  const status = parseJsonPath(scale.statusReplicasPath) ?? [];
  const selector = scale.labelSelectorPath ? parseJsonPath(scale.labelSelectorPath) : undefined;
  return {
    prepareForUpdate: (obj) => obj,
    view: {
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      schema: 'autoscaling.v1.Scale',
      toView(obj: ApiObject): ApiObject {
        const m = obj.metadata;
        const replicas = valueAt(obj, spec);
        const observed = valueAt(obj, status);
        const sel = selector && valueAt(obj, selector);
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
          spec: { replicas: typeof replicas === 'number' ? replicas : 0 },
          status: { replicas: typeof observed === 'number' ? observed : 0, ...(typeof sel === 'string' && sel ? { selector: sel } : {}) },
        };
      },
      fromView(view: ApiObject, old: ApiObject): ApiObject {
        const next = deepCopy(old);
        setAt(next as unknown as Record<string, unknown>, spec, (view.spec as { replicas?: number } | undefined)?.replicas ?? 0);
        if (view.metadata.resourceVersion) next.metadata.resourceVersion = view.metadata.resourceVersion;
        return next;
      },
    },
  };
}
