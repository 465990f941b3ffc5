/**
 * batch/v1 CronJob: SetDefaults_CronJob (concurrencyPolicy Allow, suspend false, history limits 3 and
 * 1) with the job template's pod defaults, and validateCronJobSpec: schedule syntax, time zone,
 * concurrency policy, a job template without selector, names of at most 52 characters on create.
 */
import type { ApiDomain } from '../../../api/domain.js';
import { typedStrategy } from '../../../api/strategy.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { fieldPath, invalid, notSupported, required } from '../../../api/field-errors.js';
import { dropDisabledTemplateFields, setTemplateDefaults, templateOf } from '../../shared/pod-spec/template.js';
import { validateNonnegative } from '../../shared/pod-spec/value-checks.js';
import type { CronJob, CronJobSpec, JobSpec } from '../../../api/generated/types.js';
import { validateJobSpecFields } from '../job/job-spec.js';
import { scheduleError } from './schedule.js';
import { validateTimeZone } from './time-zone.js';

/** The controller appends an 11-character suffix to job names, which are DNS labels. */
const MAX_NAME_LENGTH = 52;
const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'];

/** The spec, created empty when absent (validation then reports what it lacks). */
function cronJobSpec(obj: CronJob): CronJobSpec {
  obj.spec ??= {} as CronJobSpec;
  return obj.spec;
}

/** The job template's spec, created when absent so defaults have somewhere to go. */
function jobTemplateSpec(spec: CronJobSpec): JobSpec {
  spec.jobTemplate ??= {};
  spec.jobTemplate.spec ??= {} as JobSpec;
  return spec.jobTemplate.spec;
}

function setCronJobDefaults(obj: CronJob): void {
  const spec = cronJobSpec(obj);
  if (!spec.concurrencyPolicy) spec.concurrencyPolicy = 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  setTemplateDefaults(obj, templateOf(jobTemplateSpec(spec)));
}

/** validateScheduleFormat: cron syntax, and no TZ= in the schedule unless the stored one had it. */
function validateSchedule(spec: CronJobSpec, prev: Partial<CronJobSpec> | undefined, path: FieldPath): FieldError[] {
  const schedule = spec.schedule ?? '';
  if (!schedule) return [required(path)];
  const errs: FieldError[] = [];
  const error = scheduleError(schedule);
  if (error !== undefined) errs.push(invalid(path, schedule, error));
  const allowTZ = prev?.schedule?.includes('TZ') ?? false;
  if (allowTZ && schedule.includes('TZ') && spec.timeZone !== undefined) {
    errs.push(invalid(path, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  } else if (!allowTZ && schedule.includes('TZ')) {
    errs.push(invalid(path, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  return errs;
}

/** ValidateJobTemplateSpec: a valid job spec whose selector is always generated. */
function validateJobTemplate(spec: Partial<JobSpec>, path: FieldPath, domain: ApiDomain): FieldError[] {
  const errs = validateJobSpecFields(spec, path.child('spec'), { domain });
  if (spec.selector) errs.push(invalid(path.child('spec', 'selector'), spec.selector, '`selector` will be auto-generated'));
  if (spec.manualSelector === true) errs.push(notSupported(path.child('spec', 'manualSelector'), true, ['nil', 'false']));
  return errs;
}

/** validateCronJobSpec; `prev` is the stored spec on update. */
function validateCronJobSpec(spec: CronJobSpec, prev: Partial<CronJobSpec> | undefined, domain: ApiDomain): FieldError[] {
  const path = fieldPath('spec');
  const errs = validateSchedule(spec, prev, path.child('schedule'));
  errs.push(...validateNonnegative(spec.startingDeadlineSeconds, path.child('startingDeadlineSeconds')));
  if (prev === undefined || prev.timeZone !== spec.timeZone) errs.push(...validateTimeZone(spec.timeZone, path.child('timeZone')));
  const policy = spec.concurrencyPolicy ?? '';
  if (!policy) errs.push(required(path.child('concurrencyPolicy')));
  else if (!CONCURRENCY_POLICIES.includes(policy)) errs.push(notSupported(path.child('concurrencyPolicy'), policy, CONCURRENCY_POLICIES));
  errs.push(...validateJobTemplate(spec.jobTemplate?.spec ?? {}, path.child('jobTemplate'), domain));
  errs.push(...validateNonnegative(spec.successfulJobsHistoryLimit, path.child('successfulJobsHistoryLimit')));
  errs.push(...validateNonnegative(spec.failedJobsHistoryLimit, path.child('failedJobsHistoryLimit')));
  return errs;
}

export const cronJobStrategy = typedStrategy<CronJob>({
  applyDefaults: setCronJobDefaults,
  prepareForCreate(obj) {
    obj.status = {};
    dropDisabledTemplateFields(cronJobSpec(obj).jobTemplate?.spec?.template);
  },
  prepareForUpdate(obj, old) {
    dropDisabledTemplateFields(cronJobSpec(obj).jobTemplate?.spec?.template, old.spec?.jobTemplate?.spec?.template);
  },
  validate(obj, ctx) {
    const errs = validateCronJobSpec(cronJobSpec(obj), undefined, ctx.domain);
    const name = obj.metadata.name ?? '';
    if (name.length > MAX_NAME_LENGTH)
      errs.push(invalid(fieldPath('metadata', 'name'), name, `must be no more than ${MAX_NAME_LENGTH} characters`));
    return errs;
  },
  validateUpdate: (obj, old, ctx) => validateCronJobSpec(cronJobSpec(obj), old.spec ?? {}, ctx.domain),
});
