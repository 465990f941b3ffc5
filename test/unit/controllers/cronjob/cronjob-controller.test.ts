import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { parseSchedule } from '../../../../controllers/cronjob/cron-schedule.js';
import { CRONJOBS, JOBS } from '../../../../controllers/controllerutil/resources.js';
import { CronJobController } from '../../../../controllers/cronjob/cronjob-controller.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const t = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('cron schedules', () => {
  it('finds the next time of five-field schedules, descriptors and steps', () => {
    const at = '2026-03-14T10:07:30Z';
    const next = (s: string) => iso(parseSchedule(s, 'UTC').next(t(at)));
    assert.equal(next('* * * * *'), '2026-03-14T10:08:00.000Z');
    assert.equal(next('*/15 * * * *'), '2026-03-14T10:15:00.000Z');
    assert.equal(next('0 9 * * mon-fri'), '2026-03-16T09:00:00.000Z', 'the 14th is a Saturday');
    assert.equal(next('@monthly'), '2026-04-01T00:00:00.000Z');
    assert.equal(next('30 2 1 jan *'), '2027-01-01T02:30:00.000Z');
    assert.equal(next('0 0 13 * 5'), '2026-03-20T00:00:00.000Z', 'day of month OR day of week when both are restricted');
    assert.equal(next('@every 90s'), '2026-03-14T10:09:00.000Z');
  });

  it('evaluates in the time zone, across daylight saving changes', () => {
    // New York: 2026-03-08 02:00 EST jumps to 03:00 EDT.
    const ny = parseSchedule('30 2 * * *', 'America/New_York');
    assert.equal(iso(ny.next(t('2026-03-07T08:00:00Z'))), '2026-03-09T06:30:00.000Z', '02:30 does not exist on the 8th');
    const kolkata = parseSchedule('0 9 * * *', 'Asia/Kolkata');
    assert.equal(iso(kolkata.next(t('2026-03-14T00:00:00Z'))), '2026-03-14T03:30:00.000Z');
    assert.equal(iso(parseSchedule('CRON_TZ=Asia/Tokyo 0 0 * * *').next(t('2026-03-14T00:00:00Z'))), '2026-03-14T15:00:00.000Z');
  });

  it('refuses bad schedules', () => {
    assert.throws(() => parseSchedule('* * * *'), /expected exactly 5 fields/);
    assert.throws(() => parseSchedule('61 * * * *'), /above maximum/);
    assert.throws(() => parseSchedule('x * * * *'), /failed to parse int/);
  });
});

const NOW = t('2026-03-14T10:07:30Z');

function cronJob(spec: Record<string, unknown> = {}, status: Record<string, unknown> = {}): ApiObject {
  return {
    metadata: { name: 'tick', namespace: 'ns', uid: 'cj-uid', resourceVersion: '2', creationTimestamp: '2026-03-14T10:00:10Z' },
    spec: {
      schedule: '*/5 * * * *',
      timeZone: 'UTC',
      jobTemplate: { metadata: { labels: { team: 'a' } }, spec: { template: { spec: { containers: [] } } } },
      ...spec,
    },
    status,
  };
}

function job(name: string, finished?: 'Complete' | 'Failed', startedAgoMin = 1): ApiObject {
  return {
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'tick', uid: 'cj-uid', controller: true }],
    },
    spec: {},
    status: {
      startTime: iso(NOW - startedAgoMin * 60_000),
      ...(finished ? { conditions: [{ type: finished, status: 'True' }], completionTime: iso(NOW - 30_000) } : {}),
    },
  };
}

function setup(cj: ApiObject, ...jobs: ApiObject[]) {
  const ctx = newFakeContext();
  const c = new CronJobController(ctx, { now: () => NOW });
  ctx.cache(CRONJOBS, cj);
  ctx.cache(JOBS, ...jobs);
  const status = () => ctx.fake.made('PUT', '/cronjobs/tick/status').at(-1)?.body.status;
  return { ctx, c, status };
}

describe('cronjob controller sync', () => {
  it('creates the Job of the latest due time, named by its minute, and wakes for the next', async () => {
    const { ctx, c, status } = setup(cronJob());
    const r = await c.sync('ns/tick');
    const [create] = ctx.fake.made('POST', '/apis/batch/v1/namespaces/ns/jobs');
    assert.equal(create.body.metadata.name, `tick-${t('2026-03-14T10:05:00Z') / 60_000}`);
    assert.deepEqual(create.body.metadata.labels, { team: 'a' });
    assert.equal(create.body.metadata.ownerReferences[0].kind, 'CronJob');
    assert.equal(status().lastScheduleTime, '2026-03-14T10:05:00Z');
    assert.equal(status().active[0].name, create.body.metadata.name);
    assert.equal(r?.requeueAfterMs, t('2026-03-14T10:10:00Z') - NOW + 100);
    assert.ok(ctx.events.some((e) => e.reason === 'SuccessfulCreate'));
  });

  it('Forbid skips while a Job is active; Replace deletes it first; suspend creates nothing', async () => {
    const running = job('tick-old');
    const forbid = setup(cronJob({ concurrencyPolicy: 'Forbid' }, { lastScheduleTime: '2026-03-14T10:00:00Z' }), running);
    await forbid.c.sync('ns/tick');
    assert.equal(forbid.ctx.fake.made('POST').length, 0);
    assert.ok(forbid.ctx.events.some((e) => e.reason === 'JobAlreadyActive'));

    const replace = setup(cronJob({ concurrencyPolicy: 'Replace' }, { lastScheduleTime: '2026-03-14T10:00:00Z' }), job('tick-old'));
    await replace.c.sync('ns/tick');
    assert.equal(replace.ctx.fake.made('DELETE', '/jobs/tick-old').length, 1);
    assert.equal(replace.ctx.fake.made('POST').length, 1);

    const suspended = setup(cronJob({ suspend: true }));
    await suspended.c.sync('ns/tick');
    assert.equal(suspended.ctx.fake.made('POST').length, 0);
  });

  it('does not start a time older than startingDeadlineSeconds, and reports many missed times', async () => {
    const late = setup(cronJob({ schedule: '5 10 * * *', startingDeadlineSeconds: 60 }));
    const r = await late.c.sync('ns/tick');
    assert.equal(late.ctx.fake.made('POST').length, 0, '10:05 is more than 60 s ago');
    assert.equal(r?.requeueAfterMs, t('2026-03-15T10:05:00Z') - NOW + 100);

    const old = cronJob({ schedule: '* * * * *' });
    old.metadata.creationTimestamp = '2026-03-14T07:00:00Z';
    const many = setup(old);
    await many.c.sync('ns/tick');
    assert.ok(many.ctx.events.some((e) => e.reason === 'TooManyMissedTimes' && /too many missed start times: 187\./.test(e.note)));
    assert.equal(many.ctx.fake.made('POST').length, 1, 'one Job for the latest time');
  });

  it('keeps history limits and records finished Jobs', async () => {
    const { ctx, c, status } = setup(
      cronJob(
        { successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 1 },
        { lastScheduleTime: '2026-03-14T10:05:00Z', active: [{ name: 'ok-2', uid: 'uid-ok-2' }] },
      ),
      job('ok-1', 'Complete', 20),
      job('ok-2', 'Complete', 10),
      job('bad-1', 'Failed', 30),
      job('bad-2', 'Failed', 15),
    );
    await c.sync('ns/tick');
    assert.deepEqual(
      ctx.fake.made('DELETE').map((r) => r.path.split('/').at(-1)),
      ['ok-1', 'bad-1'],
    );
    assert.ok(ctx.events.some((e) => e.note === 'Saw completed job: ok-2, status: Complete'));
    assert.equal(status().active, undefined);
    assert.equal(status().lastSuccessfulTime, iso(NOW - 30_000)!.replace('.000Z', 'Z'));
  });

  it('reports an unknown time zone', async () => {
    const { ctx, c } = setup(cronJob({ timeZone: 'Mars/Olympus' }));
    await c.sync('ns/tick');
    assert.ok(ctx.events.some((e) => e.reason === 'UnknownTimeZone'));
    assert.equal(ctx.fake.made('POST').length, 0);
  });
});
