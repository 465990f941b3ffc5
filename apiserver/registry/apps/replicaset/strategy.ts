/** apps/v1 ReplicaSet: replicas default 1, the template's pod defaults, ValidateReplicaSetSpec, an immutable selector. */
import { type StrategyContext, typedStrategy } from '../../../api/strategy.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath } from '../../../api/field-errors.js';
import type { ReplicaSet, ReplicaSetSpec } from '../../../api/generated/types.js';
import { dropDisabledTemplateFields, setTemplateDefaults, templateOf } from '../../shared/pod-spec/template.js';
import { validateNonnegative } from '../../shared/pod-spec/value-checks.js';
import { validateSelectorUnchanged, validateTemplateForSelector, validateWorkloadSelector } from '../../shared/workload/workload-spec.js';
import { templateWarningsOnCreate, templateWarningsOnUpdate } from '../../shared/pod-spec/warnings.js';

/** The spec, created empty when absent (validation then reports what it lacks). */
function replicaSetSpec(obj: ReplicaSet): ReplicaSetSpec {
  obj.spec ??= {} as ReplicaSetSpec;
  return obj.spec;
}

function validateReplicaSet(obj: ReplicaSet, ctx: StrategyContext): FieldError[] {
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

export const replicaSetStrategy = typedStrategy<ReplicaSet>({
  warningsOnCreate: templateWarningsOnCreate,
  warningsOnUpdate: templateWarningsOnUpdate,
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
    dropDisabledTemplateFields(replicaSetSpec(obj).template, old.spec?.template);
  },
  validate: validateReplicaSet,
  validateUpdate: (obj, old, ctx) => [...validateReplicaSet(obj, ctx), ...validateSelectorUnchanged(replicaSetSpec(obj), old.spec ?? {})],
});
