/**
 * apps/v1 DaemonSet: SetDefaults_DaemonSet (RollingUpdate with maxUnavailable 1 and maxSurge 0,
 * revisionHistoryLimit 10) with the template's pod defaults, ValidateDaemonSetSpec, an immutable
 * selector, and the template generation kept in the `deprecated.daemonset.template.generation`
 * annotation (1 on create, +1 whenever the template changes).
 */
import type { ApiDomain } from '../../../api/domain.js';
import { typedStrategy } from '../../../api/strategy.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { fieldPath, invalid, notSupported, required } from '../../../api/field-errors.js';
import { validatePodTemplateSpec } from '../../shared/pod-spec/pod-spec.js';
import { semanticEqual } from '../../shared/pod-spec/semantic-equal.js';
import { dropDisabledTemplateFields, setTemplateDefaults, templateOf } from '../../shared/pod-spec/template.js';
import type { DaemonSet, DaemonSetSpec } from '../../../api/generated/types.js';
import { validateNonnegative } from '../../shared/pod-spec/value-checks.js';
import { intOrPercentValue, validateNotMoreThan100Percent, validatePositiveIntOrPercent } from '../../shared/workload/int-or-percent.js';
import { validateLabelSelector } from '../../shared/pod-spec/label-selector.js';
import {
  selectorOf,
  validateLongRunningTemplate,
  validateSelectorMatchesTemplate,
  validateSelectorUnchanged,
} from '../../shared/workload/workload-spec.js';
import { templateWarningsOnCreate, templateWarningsOnUpdate } from '../../shared/pod-spec/warnings.js';

/** The annotation apps/v1 keeps the internal spec.templateGeneration in. */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

/** The spec, created empty when absent (validation then reports what it lacks). */
function daemonSetSpec(obj: DaemonSet): DaemonSetSpec {
  obj.spec ??= {} as DaemonSetSpec;
  return obj.spec;
}

function setDaemonSetDefaults(obj: DaemonSet): void {
  const spec = daemonSetSpec(obj);
  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rolling = (strategy.rollingUpdate ??= {});
    rolling.maxUnavailable ??= 1;
    rolling.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  setTemplateDefaults(obj, templateOf(spec));
}

function templateGeneration(obj: DaemonSet): number {
  const value = obj.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION] ?? '';
  return /^\d+$/.test(value) ? Number(value) : 0;
}

function setTemplateGeneration(obj: DaemonSet, generation: number): void {
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [TEMPLATE_GENERATION_ANNOTATION]: String(generation) };
}

/** ValidateDaemonSetUpdateStrategy with ValidateRollingUpdateDaemonSet. */
function validateUpdateStrategy(strategy: DaemonSetSpec['updateStrategy'], path: FieldPath): FieldError[] {
  const type = strategy?.type ?? '';
  if (type === 'OnDelete') return [];
  if (type !== 'RollingUpdate') return [notSupported(path, strategy ?? {}, ['RollingUpdate', 'OnDelete'])];
  const rolling = strategy?.rollingUpdate;
  if (!rolling) return [required(path.child('rollingUpdate'))];
  const at = path.child('rollingUpdate');
  const errs = [
    ...validatePositiveIntOrPercent(rolling.maxUnavailable, at.child('maxUnavailable')),
    ...validatePositiveIntOrPercent(rolling.maxSurge, at.child('maxSurge')),
    ...validateNotMoreThan100Percent(rolling.maxUnavailable, at.child('maxUnavailable')),
    ...validateNotMoreThan100Percent(rolling.maxSurge, at.child('maxSurge')),
  ];
  const hasUnavailable = intOrPercentValue(rolling.maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(rolling.maxSurge) !== 0;
  if (hasUnavailable && hasSurge)
    errs.push(invalid(at.child('maxSurge'), rolling.maxSurge ?? 0, 'may not be set when maxUnavailable is non-zero'));
  if (!hasUnavailable && !hasSurge) errs.push(required(at.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
  return errs;
}

/** ValidateDaemonSetSpec. */
function validateDaemonSetSpec(obj: DaemonSet, domain: ApiDomain): FieldError[] {
  const spec = daemonSetSpec(obj);
  const path = fieldPath('spec');
  const errs = validateLabelSelector(spec.selector, path.child('selector'));
  const selector = selectorOf(spec.selector);
  if (selector) errs.push(...validateSelectorMatchesTemplate(selector, spec.template, path.child('template')));
  const selectorTerms = Object.keys(spec.selector?.matchLabels ?? {}).length + (spec.selector?.matchExpressions ?? []).length;
  if (spec.selector && selectorTerms === 0)
    errs.push(invalid(path.child('selector'), spec.selector, 'empty selector is invalid for daemonset'));
  errs.push(...validatePodTemplateSpec(spec.template, path.child('template'), { domain }));
  errs.push(...validateLongRunningTemplate(spec.template, path.child('template'), 'DaemonSet'));
  errs.push(...validateNonnegative(spec.minReadySeconds ?? 0, path.child('minReadySeconds')));
  errs.push(...validateUpdateStrategy(spec.updateStrategy, path.child('updateStrategy')));
  errs.push(...validateNonnegative(spec.revisionHistoryLimit, path.child('revisionHistoryLimit')));
  return errs;
}

export const daemonSetStrategy = typedStrategy<DaemonSet>({
  warningsOnCreate: templateWarningsOnCreate,
  warningsOnUpdate: templateWarningsOnUpdate,
  applyDefaults: setDaemonSetDefaults,
  prepareForCreate(obj) {
    obj.status = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
    dropDisabledTemplateFields(daemonSetSpec(obj).template);
    setTemplateGeneration(obj, Math.max(templateGeneration(obj), 1));
  },
  prepareForUpdate(obj, old) {
    const prev = old.spec;
    const spec = daemonSetSpec(obj);
    dropDisabledTemplateFields(spec.template, prev?.template);
    const generation = Math.max(templateGeneration(old), 1);
    setTemplateGeneration(obj, semanticEqual(spec.template, prev?.template) ? generation : generation + 1);
  },
  validate: (obj, ctx) => validateDaemonSetSpec(obj, ctx.domain),
  validateUpdate: (obj, old, ctx) => [
    ...validateDaemonSetSpec(obj, ctx.domain),
    ...validateSelectorUnchanged(daemonSetSpec(obj), old.spec ?? {}),
  ],
});
