/**
 * apps/v1 Deployment: SetDefaults_Deployment (replicas 1, RollingUpdate 25%/25%, revisionHistoryLimit
 * 10, progressDeadlineSeconds 600) with the template's pod defaults, ValidateDeploymentSpec, and an
 * immutable selector.
 */
import type { ApiDomain } from '../../../api/domain.js';
import { typedStrategy } from '../../../api/strategy.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { fieldPath, forbidden, invalid, notSupported, required } from '../../../api/field-errors.js';
import { dropDisabledTemplateFields, setTemplateDefaults, templateOf } from '../../shared/pod-spec/template.js';
import type { Deployment, DeploymentSpec } from '../../../api/generated/types.js';
import { validateNonnegative } from '../../shared/pod-spec/value-checks.js';
import { intOrPercentValue, validateNotMoreThan100Percent, validatePositiveIntOrPercent } from '../../shared/workload/int-or-percent.js';
import { validateSelectorUnchanged, validateTemplateForSelector, validateWorkloadSelector } from '../../shared/workload/workload-spec.js';
import { templateWarningsOnCreate, templateWarningsOnUpdate } from '../../shared/pod-spec/warnings.js';

/** The spec, created empty when absent (validation then reports what it lacks). */
function deploymentSpec(obj: Deployment): DeploymentSpec {
  obj.spec ??= {} as DeploymentSpec;
  return obj.spec;
}

function setDeploymentDefaults(obj: Deployment): void {
  const spec = deploymentSpec(obj);
  spec.replicas ??= 1;
  const strategy = (spec.strategy ??= {});
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rolling = (strategy.rollingUpdate ??= {});
    rolling.maxUnavailable ??= '25%';
    rolling.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  setTemplateDefaults(obj, templateOf(spec));
}

/** ValidateDeploymentStrategy with ValidateRollingUpdateDeployment. */
function validateStrategy(strategy: DeploymentSpec['strategy'], path: FieldPath): FieldError[] {
  const type = strategy?.type ?? '';
  const rolling = strategy?.rollingUpdate;
  if (type === 'Recreate') {
    return rolling ? [forbidden(path.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'")] : [];
  }
  if (type !== 'RollingUpdate') return [notSupported(path, strategy ?? {}, ['Recreate', 'RollingUpdate'])];
  if (!rolling) return [required(path.child('rollingUpdate'), 'this should be defaulted and never be nil')];
  const at = path.child('rollingUpdate');
  const errs = [
    ...validatePositiveIntOrPercent(rolling.maxUnavailable, at.child('maxUnavailable')),
    ...validatePositiveIntOrPercent(rolling.maxSurge, at.child('maxSurge')),
  ];
  if (intOrPercentValue(rolling.maxUnavailable) === 0 && intOrPercentValue(rolling.maxSurge) === 0) {
    errs.push(invalid(at.child('maxUnavailable'), rolling.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
  }
  errs.push(...validateNotMoreThan100Percent(rolling.maxUnavailable, at.child('maxUnavailable')));
  return errs;
}

/** ValidateDeploymentSpec. */
function validateDeploymentSpec(obj: Deployment, domain: ApiDomain): FieldError[] {
  const spec = deploymentSpec(obj);
  const path = fieldPath('spec');
  const errs = validateNonnegative(spec.replicas, path.child('replicas'));
  errs.push(...validateWorkloadSelector(spec.selector, path.child('selector'), 'deployment'));
  errs.push(...validateTemplateForSelector(spec, path, { domain }, 'ReplicaSet'));
  errs.push(...validateStrategy(spec.strategy, path.child('strategy')));
  errs.push(...validateNonnegative(spec.minReadySeconds ?? 0, path.child('minReadySeconds')));
  errs.push(...validateNonnegative(spec.revisionHistoryLimit, path.child('revisionHistoryLimit')));
  const deadline = spec.progressDeadlineSeconds;
  if (deadline !== undefined) {
    errs.push(...validateNonnegative(deadline, path.child('progressDeadlineSeconds')));
    if (deadline <= (spec.minReadySeconds ?? 0))
      errs.push(invalid(path.child('progressDeadlineSeconds'), deadline, 'must be greater than minReadySeconds'));
  }
  return errs;
}

export const deploymentStrategy = typedStrategy<Deployment>({
  warningsOnCreate: templateWarningsOnCreate,
  warningsOnUpdate: templateWarningsOnUpdate,
  applyDefaults: setDeploymentDefaults,
  prepareForCreate(obj) {
    obj.status = {};
    dropDisabledTemplateFields(deploymentSpec(obj).template);
  },
  prepareForUpdate(obj, old) {
    dropDisabledTemplateFields(deploymentSpec(obj).template, old.spec?.template);
  },
  validate: (obj, ctx) => validateDeploymentSpec(obj, ctx.domain),
  validateUpdate: (obj, old, ctx) => [
    ...validateDeploymentSpec(obj, ctx.domain),
    ...validateSelectorUnchanged(deploymentSpec(obj), old.spec ?? {}),
  ],
});
