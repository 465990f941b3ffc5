/**
 * A custom resource's scale subresource: autoscaling/v1 Scale read from and written to the paths its
 * CRD names (specReplicasPath, statusReplicasPath, labelSelectorPath), as Kubernetes' CR scale REST does.
 */
import type { CustomResourceSubresourceScale } from '../../../api/generated/types.js';
import type { ApiObject } from '../../../api/object.js';
import type { SubresourceStrategy } from '../../../api/strategy.js';
import { parseJsonPath, valueAt } from './columns.js';
import { newScaleSubresource } from '../../generic/scale-subresource.js';

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
  const numberAt = (obj: ApiObject, steps: readonly (string | number)[]) => {
    const v = valueAt(obj, steps);
    return typeof v === 'number' ? v : 0;
  };
  return newScaleSubresource({
    replicas: (obj) => numberAt(obj, spec),
    observedReplicas: (obj) => numberAt(obj, status),
    selector(obj) {
      const v = selector && valueAt(obj, selector);
      return typeof v === 'string' ? v : undefined;
    },
    setReplicas: (obj, replicas) => setAt(obj, spec, replicas),
  });
}
