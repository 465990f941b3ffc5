/**
 * apps/v1 StatefulSet: SetDefaults_StatefulSet (OrderedReady, RollingUpdate with partition 0, claim
 * retention Retain/Retain, replicas 1, revisionHistoryLimit 10, claim template defaults),
 * ValidateStatefulSetSpec, and a spec that only changes in replicas, ordinals, template,
 * updateStrategy, persistentVolumeClaimRetentionPolicy and minReadySeconds.
 */
import type { ApiDomain } from '../../../api/domain.js';
import { typedStrategy } from '../../../api/strategy.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { fieldPath, forbidden, invalid, notSupported, required } from '../../../api/field-errors.js';
import { setClaimSpecDefaults } from '../../shared/pod-spec/defaults.js';
import { validatePodTemplateSpec } from '../../shared/pod-spec/pod-spec.js';
import { semanticEqual } from '../../shared/pod-spec/semantic-equal.js';
import { dropDisabledTemplateFields, setTemplateDefaults, templateOf } from '../../shared/pod-spec/template.js';
import type { StatefulSet, StatefulSetSpec } from '../../../api/generated/types.js';
import { validateNonnegative } from '../../shared/pod-spec/value-checks.js';
import {
  selectorOf,
  validateLongRunningTemplate,
  validateSelectorMatchesTemplate,
  validateWorkloadSelector,
} from '../../shared/workload/workload-spec.js';
import { templateWarningsOnCreate, templateWarningsOnUpdate } from '../../shared/pod-spec/warnings.js';

/** The spec, created empty when absent (validation then reports what it lacks). */
function statefulSetSpec(obj: StatefulSet): StatefulSetSpec {
  obj.spec ??= {} as StatefulSetSpec;
  return obj.spec;
}

function setStatefulSetDefaults(obj: StatefulSet): void {
  const spec = statefulSetSpec(obj);
  if (!spec.podManagementPolicy) spec.podManagementPolicy = 'OrderedReady';
  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) {
    strategy.type = 'RollingUpdate';
    strategy.rollingUpdate ??= {};
  }
  if (strategy.type === 'RollingUpdate' && strategy.rollingUpdate) strategy.rollingUpdate.partition ??= 0;
  const retention = (spec.persistentVolumeClaimRetentionPolicy ??= {});
  if (!retention.whenDeleted) retention.whenDeleted = 'Retain';
  if (!retention.whenScaled) retention.whenScaled = 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  setTemplateDefaults(obj, templateOf(spec));
  for (const claim of spec.volumeClaimTemplates ?? []) {
    claim.apiVersion ??= 'v1';
    claim.kind ??= 'PersistentVolumeClaim';
    setClaimSpecDefaults(obj, (claim.spec ??= {}));
    const status = (claim.status ??= {});
    if (!status.phase) status.phase = 'Pending';
  }
}

const UPDATE_STRATEGIES = "must be 'RollingUpdate' or 'OnDelete'";

function validateUpdateStrategy(spec: StatefulSetSpec, path: FieldPath): FieldError[] {
  const strategy = spec.updateStrategy ?? {};
  const rolling = strategy.rollingUpdate;
  switch (strategy.type ?? '') {
    case '':
      return [required(path)];
    case 'OnDelete':
      return rolling ? [invalid(path.child('rollingUpdate'), rolling, "only allowed for updateStrategy 'RollingUpdate'")] : [];
    case 'RollingUpdate':
      return rolling ? validateNonnegative(rolling.partition ?? 0, path.child('rollingUpdate', 'partition')) : [];
    default:
      return [invalid(path, strategy, UPDATE_STRATEGIES)];
  }
}

const RETENTION_POLICIES = ['Retain', 'Delete'];

/** ValidateStatefulSetSpec; the pod template is validated in full, its mounts may use the claim templates. */
function validateStatefulSetSpec(obj: StatefulSet, domain: ApiDomain): FieldError[] {
  const spec = statefulSetSpec(obj);
  const path = fieldPath('spec');
  const errs: FieldError[] = [];
  const policy = spec.podManagementPolicy ?? '';
  if (!policy) errs.push(required(path.child('podManagementPolicy')));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel')
    errs.push(invalid(path.child('podManagementPolicy'), policy, "must be 'OrderedReady' or 'Parallel'"));
  errs.push(...validateUpdateStrategy(spec, path.child('updateStrategy')));
  const retention = spec.persistentVolumeClaimRetentionPolicy;
  if (retention) {
    for (const field of ['whenDeleted', 'whenScaled'] as const) {
      const value = retention[field] ?? '';
      if (!RETENTION_POLICIES.includes(value))
        errs.push(notSupported(path.child('persistentVolumeClaimRetentionPolicy', field), value, RETENTION_POLICIES));
    }
  }
  errs.push(...validateNonnegative(spec.replicas, path.child('replicas')));
  errs.push(...validateNonnegative(spec.minReadySeconds ?? 0, path.child('minReadySeconds')));
  if (spec.ordinals) errs.push(...validateNonnegative(spec.ordinals.start ?? 0, path.child('ordinals.start')));
  errs.push(...validateWorkloadSelector(spec.selector, path.child('selector'), 'statefulset'));
  const selector = selectorOf(spec.selector);
  const templatePath = path.child('template');
  if (!selector) errs.push(invalid(path.child('selector'), spec.selector ?? null, ''));
  else {
    errs.push(...validateSelectorMatchesTemplate(selector, spec.template, templatePath));
    const claimTemplateNames = (spec.volumeClaimTemplates ?? []).map((c) => c.metadata?.name ?? '');
    errs.push(...validatePodTemplateSpec(spec.template, templatePath, { domain, claimTemplateNames }));
  }
  errs.push(...validateLongRunningTemplate(spec.template, templatePath, 'StatefulSet'));
  return errs;
}

const MUTABLE_FIELDS = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
] as const;

/** ValidateStatefulSetUpdate: only the fields Kubernetes lists may change in the spec. */
function validateStatefulSetSpecUpdate(obj: StatefulSet, old: StatefulSet): FieldError[] {
  const next: Record<string, unknown> = { ...statefulSetSpec(obj) };
  const prev: Record<string, unknown> = { ...old.spec };
  for (const field of MUTABLE_FIELDS) next[field] = prev[field];
  if (semanticEqual(next, prev)) return [];
  const message =
    "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";
  return [forbidden(fieldPath('spec'), message)];
}

export const statefulSetStrategy = typedStrategy<StatefulSet>({
  warningsOnCreate: templateWarningsOnCreate,
  warningsOnUpdate: templateWarningsOnUpdate,
  applyDefaults: setStatefulSetDefaults,
  prepareForCreate(obj) {
    obj.status = { replicas: 0, availableReplicas: 0 };
    const spec = statefulSetSpec(obj);
    dropDisabledTemplateFields(spec.template);
    // MaxUnavailableStatefulSet is alpha in 1.28.
    delete spec.updateStrategy?.rollingUpdate?.maxUnavailable;
  },
  prepareForUpdate(obj, old) {
    const spec = statefulSetSpec(obj);
    const prev = old.spec;
    dropDisabledTemplateFields(spec.template, prev?.template);
    if (prev?.updateStrategy?.rollingUpdate?.maxUnavailable === undefined) delete spec.updateStrategy?.rollingUpdate?.maxUnavailable;
  },
  validate: (obj, ctx) => validateStatefulSetSpec(obj, ctx.domain),
  validateUpdate: (obj, old, ctx) => [...validateStatefulSetSpec(obj, ctx.domain), ...validateStatefulSetSpecUpdate(obj, old)],
});
