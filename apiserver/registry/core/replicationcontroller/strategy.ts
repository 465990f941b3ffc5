/**
 * core v1 ReplicationController: SetDefaults_ReplicationController (selector and labels from the
 * template's labels, replicas 1, the template's pod defaults) and ValidateReplicationController (a
 * non-empty map selector that selects the template, long-running pods). Unlike apps/v1, the selector
 * may change.
 */
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, goTyped, invalid, required } from '../../../api/field-errors.js';
import { METADATA_FIELDS, typedSelectableFields, typedStrategy, type StrategyContext } from '../../../api/strategy.js';
import type { ApiObject } from '../../../api/object.js';
import { validateLabels } from '../../../api/validation/object-meta.js';
import type { ReplicationController, ReplicationControllerSpec } from '../../../api/generated/types.js';
import { dropDisabledTemplateFields, setTemplateDefaults } from '../../shared/pod-spec/template.js';
import { validateNonnegative } from '../../shared/pod-spec/value-checks.js';
import { validatePodTemplateSpec } from '../../shared/pod-spec/pod-spec.js';
import { validateLongRunningTemplate } from '../../shared/workload/workload-spec.js';
import { templateWarningsOnCreate, templateWarningsOnUpdate } from '../../shared/pod-spec/warnings.js';

function specOf(rc: ReplicationController): ReplicationControllerSpec {
  rc.spec ??= {};
  return rc.spec;
}

/** Whether every pair of the map selector is among the labels (an empty selector selects nothing here). */
export function mapSelectorMatches(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

function validateReplicationController(rc: ReplicationController, ctx: StrategyContext): FieldError[] {
  const spec = specOf(rc);
  const path = fieldPath('spec');
  const selector = spec.selector ?? {};
  const errs = [...validateNonnegative(spec.minReadySeconds ?? 0, path.child('minReadySeconds'))];
  if (Object.keys(selector).length === 0) errs.push(required(path.child('selector')));
  else errs.push(...validateLabels(selector, path.child('selector')));
  errs.push(...validateNonnegative(spec.replicas, path.child('replicas')));
  const templatePath = path.child('template');
  if (!spec.template) return [...errs, required(templatePath)];
  const labels = spec.template.metadata?.labels ?? {};
  if (Object.keys(selector).length > 0 && !mapSelectorMatches(selector, labels)) {
    errs.push(
      invalid(
        templatePath.child('metadata', 'labels'),
        goTyped('map[string]string', labels),
        '`selector` does not match template `labels`',
      ),
    );
  }
  errs.push(...validatePodTemplateSpec(spec.template, templatePath, { domain: ctx.domain }));
  errs.push(...validateLongRunningTemplate(spec.template, templatePath, 'ReplicationController'));
  return errs;
}

export const replicationControllerStrategy = typedStrategy<ReplicationController>({
  warningsOnCreate: templateWarningsOnCreate,
  warningsOnUpdate: templateWarningsOnUpdate,
  applyDefaults(rc) {
    const spec = specOf(rc);
    const labels = spec.template?.metadata?.labels;
    if (labels) {
      if (Object.keys(spec.selector ?? {}).length === 0) spec.selector = { ...labels };
      if (Object.keys(rc.metadata.labels ?? {}).length === 0) rc.metadata.labels = { ...labels };
    }
    spec.replicas ??= 1;
    if (spec.template) setTemplateDefaults(rc, spec.template);
  },
  prepareForCreate(rc) {
    rc.status = { replicas: 0 };
    dropDisabledTemplateFields(specOf(rc).template);
  },
  prepareForUpdate(rc, old) {
    dropDisabledTemplateFields(specOf(rc).template, old.spec?.template);
  },
  validate: validateReplicationController,
  validateUpdate: (rc, _old, ctx) => validateReplicationController(rc, ctx),
});

/** ReplicationController fields usable in field selectors. */
export const replicationControllerSelectableFields: Record<string, (obj: ApiObject) => string | undefined> = {
  ...METADATA_FIELDS,
  ...typedSelectableFields<ReplicationController>({ 'status.replicas': (o) => String(o.status?.replicas ?? 0) }),
};
