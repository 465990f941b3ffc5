import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deepCopy } from '../../../../apiserver/api/object.js';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import { jobStrategy } from '../../../../apiserver/registry/batch/job/strategy.js';
import { cronJobStrategy } from '../../../../apiserver/registry/batch/cronjob/strategy.js';
import { scheduleError } from '../../../../apiserver/registry/batch/cronjob/schedule.js';
import { create, createErrors, ctx, object, stored, updateErrors } from '../helpers.js';

const podTemplate = (restartPolicy = 'Never') => ({ spec: { restartPolicy, containers: [{ name: 'work', image: 'busybox:1.36' }] } });
const job = (spec: Record<string, unknown> = {}, name = 'pi') => object('batch/v1', 'Job', { template: podTemplate(), ...spec }, name);

test('job defaults and the generated selector under the domain prefix', () => {
  const { obj, errors } = create(jobStrategy, job({ template: { metadata: { labels: { app: 'pi' } }, ...podTemplate() } }));
  assert.deepEqual(errors, []);
  const spec = obj.spec as any;
  assert.equal(spec.completions, 1);
  assert.equal(spec.parallelism, 1);
  assert.equal(spec.backoffLimit, 6);
  assert.equal(spec.completionMode, 'NonIndexed');
  assert.equal(spec.suspend, false);
  // Defaulted from the template, the labels share its map in Kubernetes, so they get the generated ones too.
  assert.deepEqual(obj.metadata.labels, spec.template.metadata.labels, 'job labels default to the template labels');
  assert.deepEqual(spec.selector, { matchLabels: { 'batch.orch.io/controller-uid': 'uid-1' } });
  assert.deepEqual(spec.template.metadata.labels, {
    app: 'pi',
    'job-name': 'pi',
    'batch.orch.io/job-name': 'pi',
    'controller-uid': 'uid-1',
    'batch.orch.io/controller-uid': 'uid-1',
  });
  assert.deepEqual(obj.status, {});
});

test('the k8s.io domain uses the kubernetes.io prefix', () => {
  const k8s = { ...ctx, domain: newApiDomain('k8s.io') };
  const obj = job();
  jobStrategy.applyDefaults!(obj, k8s);
  jobStrategy.prepareForCreate!(obj, k8s);
  assert.deepEqual((obj.spec as any).selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': 'uid-1' } });
});

test('a generated name is final before the labels are generated', () => {
  const obj = job();
  obj.metadata = { generateName: 'pi-', namespace: 'ns', uid: 'u' };
  const { errors } = create(jobStrategy, obj);
  assert.deepEqual(errors, []);
  assert.match(obj.metadata.name ?? '', /^pi-[a-z0-9]{5}$/);
  assert.equal((obj.spec as any).template.metadata.labels['job-name'], obj.metadata.name);
});

test('manual selectors are kept; generated ones may not be overridden', () => {
  const manual = create(
    jobStrategy,
    job({
      manualSelector: true,
      selector: { matchLabels: { app: 'x' } },
      template: { metadata: { labels: { app: 'x' } }, ...podTemplate() },
    }),
  );
  assert.deepEqual(manual.errors, []);
  assert.deepEqual((manual.obj.spec as any).selector, { matchLabels: { app: 'x' } });
  assert.deepEqual(
    createErrors(
      jobStrategy,
      job({ selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, ...podTemplate() } }),
    ),
    ['spec.selector: Invalid value: {"matchLabels":{"app":"x","batch.orch.io/controller-uid":"uid-1"}}: `selector` not auto-generated'],
  );
  assert.deepEqual(createErrors(jobStrategy, job({ manualSelector: true, template: podTemplate() })), [
    'spec.selector: Required value',
    'spec.template.metadata.labels: Invalid value: map[string]string{}: `selector` does not match template `labels`',
  ]);
});

test('job validation', () => {
  assert.deepEqual(createErrors(jobStrategy, job({ template: podTemplate('Always') })), [
    'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
  ]);
  assert.deepEqual(createErrors(jobStrategy, job({ parallelism: -1, backoffLimit: -2, completionMode: 'Sometimes' })), [
    'spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
    'spec.backoffLimit: Invalid value: -2: must be greater than or equal to 0',
    'spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"',
  ]);
  assert.deepEqual(createErrors(jobStrategy, job({ completionMode: 'Indexed', parallelism: 2 })), [
    'spec.completions: Required value: when completion mode is Indexed',
  ]);
  assert.deepEqual(createErrors(jobStrategy, job({ completionMode: 'Indexed', completions: 11 }, 'a'.repeat(62))), [
    `metadata.name: Invalid value: "${'a'.repeat(62)}": will not able to create pod with invalid DNS label: ${'a'.repeat(62)}-10`,
  ]);
  assert.deepEqual(
    createErrors(
      jobStrategy,
      job({
        template: podTemplate('OnFailure'),
        podFailurePolicy: { rules: [{ action: 'Retry', onExitCodes: { operator: 'In', values: [3, 0, 3] } }, { action: 'Ignore' }] },
      }),
    ),
    [
      'spec.podFailurePolicy.rules[0].action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3',
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [3,0,3]: must be ordered',
      'spec.podFailurePolicy.rules[1]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
      'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
    ],
  );
});

test('job updates: selector, template and completions are immutable', () => {
  const old = stored(jobStrategy, job({ parallelism: 2, completions: 4 }));
  const scaled = deepCopy(old);
  (scaled.spec as any).parallelism = 3;
  (scaled.spec as any).activeDeadlineSeconds = 30;
  assert.deepEqual(updateErrors(jobStrategy, scaled, old), []);
  const changed = deepCopy(old);
  (changed.spec as any).completions = 5;
  (changed.spec as any).template.spec.containers[0].image = 'busybox:1.37';
  const errs = updateErrors(jobStrategy, changed, old);
  assert.deepEqual(
    errs.map((e) => e.replace(/Invalid value: \{.*\}: /, 'Invalid value: {…}: ')),
    ['spec.completions: Invalid value: 5: field is immutable', 'spec.template: Invalid value: {…}: field is immutable'],
  );
});

test('suspended jobs that never started may change scheduling directives', () => {
  const old = stored(jobStrategy, job({ suspend: true }));
  const next = deepCopy(old);
  (next.spec as any).template.spec.nodeSelector = { zone: 'a' };
  (next.spec as any).template.metadata.annotations = { note: 'x' };
  assert.deepEqual(updateErrors(jobStrategy, next, old), []);
  const resumed = deepCopy(next);
  (resumed.spec as any).suspend = false;
  assert.equal(updateErrors(jobStrategy, resumed, old).length, 1);
});

const cronJob = (spec: Record<string, unknown>, name = 'nightly') =>
  object('batch/v1', 'CronJob', { schedule: '0 3 * * *', jobTemplate: { spec: { template: podTemplate('OnFailure') } }, ...spec }, name);

test('cronjob defaults', () => {
  const { obj, errors } = create(cronJobStrategy, cronJob({}));
  assert.deepEqual(errors, []);
  const spec = obj.spec as any;
  assert.equal(spec.concurrencyPolicy, 'Allow');
  assert.equal(spec.suspend, false);
  assert.equal(spec.successfulJobsHistoryLimit, 3);
  assert.equal(spec.failedJobsHistoryLimit, 1);
  assert.equal(spec.jobTemplate.spec.template.spec.terminationGracePeriodSeconds, 30);
  assert.equal(spec.jobTemplate.spec.backoffLimit, undefined, 'job defaults are not applied to templates');
});

test('cronjob validation', () => {
  assert.deepEqual(createErrors(cronJobStrategy, cronJob({ schedule: '', concurrencyPolicy: 'Sometimes', startingDeadlineSeconds: -1 })), [
    'spec.schedule: Required value',
    'spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
    'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
  ]);
  assert.deepEqual(createErrors(cronJobStrategy, cronJob({ schedule: '61 * * * *' })), [
    'spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61',
  ]);
  assert.deepEqual(createErrors(cronJobStrategy, cronJob({ schedule: 'TZ=UTC 0 * * * *' })), [
    'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
  ]);
  assert.deepEqual(createErrors(cronJobStrategy, cronJob({ timeZone: 'Mars/Olympus' })), [
    'spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
  ]);
  assert.deepEqual(createErrors(cronJobStrategy, cronJob({ timeZone: 'Local' })), [
    'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
  ]);
  assert.deepEqual(createErrors(cronJobStrategy, cronJob({ timeZone: 'Europe/Paris' })), []);
  assert.deepEqual(
    createErrors(
      cronJobStrategy,
      cronJob({ jobTemplate: { spec: { selector: { matchLabels: { a: 'b' } }, manualSelector: true, template: podTemplate('Always') } } }),
    ),
    [
      'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
      'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated',
      'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
    ],
  );
  assert.deepEqual(createErrors(cronJobStrategy, cronJob({}, 'n'.repeat(53))), [
    `metadata.name: Invalid value: "${'n'.repeat(53)}": must be no more than 52 characters`,
  ]);
});

test('cronjob updates keep a stored TZ= schedule valid and skip the name length', () => {
  const old = stored(cronJobStrategy, cronJob({}, 'n'.repeat(40)));
  (old.spec as any).schedule = 'TZ=UTC 0 * * * *';
  const next = deepCopy(old);
  (next.spec as any).suspend = true;
  assert.deepEqual(updateErrors(cronJobStrategy, next, old), []);
  (next.spec as any).timeZone = 'UTC';
  assert.deepEqual(updateErrors(cronJobStrategy, next, old), [
    'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule',
  ]);
});

test('cron schedules as robfig/cron parses them', () => {
  for (const ok of [
    '*/5 * * * *',
    '0 0 1 jan-mar mon',
    '0 12 * * MON-FRI',
    '@hourly',
    '@every 1h30m',
    '0 0 * * ?',
    '5,10,15 1-3/2 * * 0-6',
  ]) {
    assert.equal(scheduleError(ok), undefined, ok);
  }
  const cases: [string, string][] = [
    ['* * *', 'expected exactly 5 fields, found 3: [* * *]'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['0 24 * * *', 'end of range (24) above maximum (23): 24'],
    ['0 0 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['0 0 * * 7', 'end of range (7) above maximum (6): 7'],
    ['@often', 'unrecognized descriptor: @often'],
    ['@every 5d', 'failed to parse duration @every 5d: time: unknown unit "d" in duration "5d"'],
    ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
    ['TZ=Nowhere/Place 0 * * * *', 'provided bad location Nowhere/Place: unknown time zone Nowhere/Place'],
  ];
  for (const [schedule, message] of cases) assert.equal(scheduleError(schedule), message, schedule);
});
