/**
 * batch/v1 Job: SetDefaults_Job (completions/parallelism 1, backoffLimit 6, completionMode NonIndexed,
 * suspend false, labels from the template) with the template's pod defaults; a generated selector on
 * the job's uid unless manualSelector (labels `controller-uid`, `job-name` and their
 * `batch.<prefix>/` forms, the prefix from the API domain); ValidateJob and ValidateJobSpecUpdate.
 */
import type { ApiDomain } from '../../../api/domain.js';
import { METADATA_FIELDS, typedSelectableFields, typedStrategy } from '../../../api/strategy.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, invalid, required } from '../../../api/field-errors.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import { isDNS1123Label } from '../../../api/validation/names.js';
import { generateName } from '../../generic/object-meta-rules.js';
import { validateLabelSelector } from '../../shared/pod-spec/label-selector.js';
import { semanticEqual } from '../../shared/pod-spec/semantic-equal.js';
import { dropDisabledTemplateFields, setTemplateDefaults, templateOf } from '../../shared/pod-spec/template.js';
import type { Job, JobSpec, JobStatus, PodSpec, PodTemplateSpec } from '../../../api/generated/types.js';
import { deepCopy } from '../../../api/object.js';
import type { StatusRules } from '../../shared/workload/status-counters.js';
import { selectorOf, validateSelectorMatchesTemplate } from '../../shared/workload/workload-spec.js';
import { validateJobSpecFields } from './job-spec.js';
import { templateWarningsOnCreate, templateWarningsOnUpdate } from '../../shared/pod-spec/warnings.js';

const MAX_INT32 = 2147483647;

/** The labels that tie a Job's pods to it; `batch.<prefix>/…` are the current ones, the others legacy. */
function jobLabels(domain: ApiDomain): { controllerUid: string; jobName: string; legacyControllerUid: string; legacyJobName: string } {
  return {
    controllerUid: `batch.${domain.labelPrefix}/controller-uid`,
    jobName: `batch.${domain.labelPrefix}/job-name`,
    legacyControllerUid: 'controller-uid',
    legacyJobName: 'job-name',
  };
}

/** The spec, created empty when absent (validation then reports what it lacks). */
function jobSpec(obj: Job): JobSpec {
  obj.spec ??= {} as JobSpec;
  return obj.spec;
}

/** SetDefaults_Job: a Job without labels takes its template's. */
function labelsFromTemplate(obj: Job): void {
  const templateLabels = obj.spec?.template?.metadata?.labels;
  if (templateLabels && Object.keys(obj.metadata.labels ?? {}).length === 0) obj.metadata.labels = { ...templateLabels };
}

function setJobDefaults(obj: Job): void {
  const spec = jobSpec(obj);
  if (spec.completions === undefined && spec.parallelism === undefined) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex !== undefined ? MAX_INT32 : 6;
  labelsFromTemplate(obj);
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  for (const rule of spec.podFailurePolicy?.rules ?? []) {
    for (const pattern of rule.onPodConditions ?? []) if (!pattern.status) pattern.status = 'True';
  }
  setTemplateDefaults(obj, templateOf(spec));
}

/** generateSelector: the uid and name labels on the template (unless set), a selector on the uid. */
function generateSelector(obj: Job, domain: ApiDomain): void {
  const spec = jobSpec(obj);
  const labels = jobLabels(domain);
  const template = templateOf(spec);
  template.metadata ??= {};
  const templateLabels = (template.metadata.labels ??= {});
  const uid = obj.metadata.uid ?? '';
  const name = obj.metadata.name ?? '';
  for (const key of [labels.legacyJobName, labels.jobName]) templateLabels[key] ??= name;
  for (const key of [labels.legacyControllerUid, labels.controllerUid]) templateLabels[key] ??= uid;
  spec.selector ??= {};
  const matchLabels = (spec.selector.matchLabels ??= {});
  matchLabels[labels.controllerUid] ??= uid;
}

/** ValidateHasLabel: the template carries `key` with `value`. */
function validateHasLabel(template: PodTemplateSpec | undefined, key: string, value: string): FieldError[] {
  const labels = template?.metadata?.labels;
  const path = fieldPath('spec', 'template', 'metadata', 'labels').key(key);
  if (!labels || !Object.hasOwn(labels, key)) return [required(path, `must be '${value}'`)];
  return labels[key] === value ? [] : [invalid(path, labels, `must be '${value}'`)];
}

/** validateGeneratedSelector: a generated selector and its template labels are the job's own. */
function validateGeneratedSelector(obj: Job, domain: ApiDomain, requirePrefixedLabels: boolean): FieldError[] {
  const spec = jobSpec(obj);
  if (spec.manualSelector === true || !spec.selector) return [];
  const uid = obj.metadata.uid ?? '';
  const name = obj.metadata.name ?? '';
  const labels = jobLabels(domain);
  const errs: FieldError[] = [];
  if (!uid) errs.push(required(fieldPath('metadata', 'uid')));
  errs.push(...validateHasLabel(spec.template, labels.legacyControllerUid, uid));
  errs.push(...validateHasLabel(spec.template, labels.legacyJobName, name));
  const expected: Record<string, string> = { [labels.legacyControllerUid]: uid, [labels.legacyJobName]: name };
  if (requirePrefixedLabels) {
    errs.push(...validateHasLabel(spec.template, labels.controllerUid, uid));
    errs.push(...validateHasLabel(spec.template, labels.jobName, name));
    expected[labels.controllerUid] = uid;
    expected[labels.jobName] = name;
  }
  const selector = selectorOf(spec.selector);
  if (selector && !selector.matches(expected))
    errs.push(invalid(fieldPath('spec', 'selector'), spec.selector, '`selector` not auto-generated'));
  return errs;
}

/** ValidateJob: generated selector, spec, selector, and the hostnames of an indexed job's pods. */
function validateJob(obj: Job, domain: ApiDomain, requirePrefixedLabels: boolean): FieldError[] {
  const spec = jobSpec(obj);
  const path = fieldPath('spec');
  const errs = validateGeneratedSelector(obj, domain, requirePrefixedLabels);
  errs.push(...validateJobSpecFields(spec, path, { domain }));
  if (!spec.selector) errs.push(required(path.child('selector')));
  else errs.push(...validateLabelSelector(spec.selector, path.child('selector')));
  const selector = selectorOf(spec.selector);
  if (selector) errs.push(...validateSelectorMatchesTemplate(selector, spec.template, path.child('template')));
  if (spec.completionMode === 'Indexed' && (spec.completions ?? 0) > 0) {
    const hostname = `${obj.metadata.name ?? ''}-${(spec.completions ?? 0) - 1}`;
    if (isDNS1123Label(hostname).length > 0) {
      errs.push(
        invalid(fieldPath('metadata', 'name'), obj.metadata.name ?? '', `will not able to create pod with invalid DNS label: ${hostname}`),
      );
    }
  }
  return errs;
}

/** A template with the scheduling directives a suspended, never-started job may change taken from `next`. */
function withMutableDirectives(prev: PodTemplateSpec | undefined, next: PodTemplateSpec | undefined): PodTemplateSpec {
  const template = deepCopy(prev ?? {});
  const spec = (template.spec ??= {} as PodSpec);
  const nextSpec: Partial<PodSpec> = next?.spec ?? {};
  const nodeAffinity = nextSpec.affinity?.nodeAffinity;
  if (nextSpec.affinity === undefined && spec.affinity !== undefined) {
    delete spec.affinity.nodeAffinity;
    if (Object.keys(spec.affinity).length === 0) delete spec.affinity;
  } else if (nextSpec.affinity !== undefined) {
    spec.affinity = { ...(spec.affinity ?? {}), nodeAffinity };
  }
  spec.nodeSelector = nextSpec.nodeSelector;
  spec.tolerations = nextSpec.tolerations;
  spec.schedulingGates = nextSpec.schedulingGates;
  template.metadata = { ...(template.metadata ?? {}), annotations: next?.metadata?.annotations, labels: next?.metadata?.labels };
  return template;
}

/** ValidateJobSpecUpdate (beyond the new job's own validity). */
function validateJobSpecUpdate(obj: Job, old: Job): FieldError[] {
  const next = jobSpec(obj);
  const prev: Partial<JobSpec> = old.spec ?? {};
  const path = fieldPath('spec');
  const errs: FieldError[] = [];
  const immutable = (field: keyof JobSpec & string) => {
    if (!semanticEqual(next[field], prev[field])) errs.push(invalid(path.child(field), next[field] ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  };
  if (next.completionMode !== 'Indexed') immutable('completions');
  else if (!semanticEqual(next.completions, prev.completions) && next.completions !== undefined && next.completions !== next.parallelism) {
    errs.push(invalid(path.child('completions'), next.completions, 'can only be modified in tandem with spec.parallelism'));
  }
  immutable('selector');
  const startedOrRunning = old.status?.startTime !== undefined || prev.suspend !== true || next.suspend !== true;
  const oldTemplate = startedOrRunning ? prev.template : withMutableDirectives(prev.template, next.template);
  if (!semanticEqual(next.template, oldTemplate))
    errs.push(invalid(path.child('template'), next.template ?? {}, FIELD_IMMUTABLE_ERROR_MSG));
  immutable('completionMode');
  immutable('podFailurePolicy');
  immutable('backoffLimitPerIndex');
  return errs;
}

/** JobBackoffLimitPerIndex and JobPodReplacementPolicy are alpha in 1.28: their fields are dropped. */
function dropDisabledJobFields(spec: JobSpec, prev?: Partial<JobSpec>): void {
  if (prev?.backoffLimitPerIndex === undefined) delete spec.backoffLimitPerIndex;
  if (prev?.maxFailedIndexes === undefined) delete spec.maxFailedIndexes;
  if (prev?.podReplacementPolicy === undefined) delete spec.podReplacementPolicy;
}

export const jobStrategy = typedStrategy<Job>({
  warningsOnCreate: templateWarningsOnCreate,
  warningsOnUpdate: templateWarningsOnUpdate,
  applyDefaults: setJobDefaults,
  prepareForCreate(obj, ctx) {
    obj.status = {};
    const spec = jobSpec(obj);
    dropDisabledJobFields(spec);
    dropDisabledTemplateFields(spec.template);
    // The generated labels need the final name: generate it now rather than after this step.
    if (!obj.metadata.name && obj.metadata.generateName) obj.metadata.name = generateName(obj.metadata.generateName);
    // Labels defaulted from the template share its map in Kubernetes, so they get the generated labels too;
    // and a Job still without labels takes them when Kubernetes reads it back (defaulting again).
    const shared = JSON.stringify(obj.metadata.labels ?? {}) === JSON.stringify(spec.template?.metadata?.labels ?? {});
    if (spec.manualSelector !== true) generateSelector(obj, ctx.domain);
    if (shared) delete obj.metadata.labels;
    labelsFromTemplate(obj);
  },
  prepareForUpdate(obj, old) {
    dropDisabledJobFields(jobSpec(obj), old.spec ?? {});
    dropDisabledTemplateFields(jobSpec(obj).template, old.spec?.template);
  },
  validate: (obj, ctx) => validateJob(obj, ctx.domain, true),
  validateUpdate(obj, old, ctx) {
    const prefixed = Object.hasOwn(old.spec?.template?.metadata?.labels ?? {}, jobLabels(ctx.domain).controllerUid);
    return [...validateJob(obj, ctx.domain, prefixed), ...validateJobSpecUpdate(obj, old)];
  },
});

/** Job fields usable in field selectors. */
export const jobSelectableFields = typedSelectableFields<Job>({
  ...METADATA_FIELDS,
  'status.successful': (o) => String(o.status?.succeeded ?? 0),
});

/** The Job conversion's own refusal. */
export const unsupportedJobFieldLabel = (label: string) => `field label ${JSON.stringify(label)} not supported for Job`;

/** jobs/status: the counters validateJobStatus checks. */
export const jobStatusRules: StatusRules<JobStatus> = { nonNegative: ['active', 'succeeded', 'failed', 'ready'], bounded: [] };
