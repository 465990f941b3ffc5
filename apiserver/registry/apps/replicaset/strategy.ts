/** apps/v1 ReplicaSet: replicas default 1, the template's pod defaults, ValidateReplicaSetSpec, an immutable selector. */
import type { ApiObject } from '../../../api/object.js';
import type { Strategy, StrategyContext } from '../../../api/strategy.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath } from '../../../api/field-errors.js';
import { dropDisabledTemplateFields, setTemplateDefaults, templateOf } from '../../core/pod-spec/template.js';
import { validateNonnegative } from '../../core/pod-spec/value-checks.js';
import { type WorkloadSpec, validateSelectorUnchanged, validateTemplateForSelector, validateWorkloadSelector } from '../workload-spec.js';

function replicaSetSpec(obj: ApiObject): WorkloadSpec {
  obj.spec ??= {};
  return obj.spec as WorkloadSpec;
}

function validateReplicaSet(obj: ApiObject, ctx: StrategyContext): FieldError[] {
  const spec = replicaSetSpec(obj);
  const path = fieldPath('spec');
  return [
    ...validateNonnegative(spec.replicas, path.child('replicas')),
    ...validateNonnegative(spec.minReadySeconds ?? 0, path.child('minReadySeconds')),
    // Kubernetes names Deployments in the ReplicaSet's empty-selector message too.
    ...validateWorkloadSelector(spec.selector, path.child('selector'), 'deployment'),
    ...validateTemplateForSelector(spec, path, { domain: ctx.domain }, 'ReplicaSet'),
  ];
}

export const replicaSetStrategy: Strategy = {
  applyDefaults(obj) {
    const spec = replicaSetSpec(obj);
    spec.replicas ??= 1;
    setTemplateDefaults(obj, templateOf(spec));
  },
  prepareForCreate(obj) {
    obj.status = { replicas: 0 };
    dropDisabledTemplateFields(replicaSetSpec(obj).template);
  },
  prepareForUpdate(obj, old) {
    dropDisabledTemplateFields(replicaSetSpec(obj).template, (old.spec as WorkloadSpec | undefined)?.template);
  },
  validate: validateReplicaSet,
  validateUpdate: (obj, old, ctx) => [
    ...validateReplicaSet(obj, ctx),
    ...validateSelectorUnchanged(replicaSetSpec(obj), (old.spec ?? {}) as WorkloadSpec),
  ],
};

/** ReplicaSet fields usable in field selectors. */
export const replicaSetSelectableFields: Record<string, (obj: ApiObject) => string | undefined> = {
  'status.replicas': (o) => String((o.status as { replicas?: number } | undefined)?.replicas ?? 0),
};
