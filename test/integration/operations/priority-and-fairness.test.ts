/**
 * API Priority and Fairness on a real server: every answer names its FlowSchema and priority level
 * by UID, a Reject level answers 429 with Retry-After (held that long for a flow that comes straight
 * back), a Queue level queues, rejects a full queue and times out a wait at a quarter of `?timeout`,
 * FlowSchemas referencing no level are Dangling (and skipped), the debug dumps and metrics show it,
 * and --enable-priority-and-fairness=false keeps the in-flight filter.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ClientRequest } from 'node:http';
import { request } from 'node:https';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestClient, type TestClient } from '../../support/http-client.js';
import { eventually } from '../../support/eventually.js';

const FC = '/apis/flowcontrol.apiserver.orch.io/v1beta3';
const CM = '/api/v1/namespaces/default/configmaps';

const level = (name: string, limitResponse: object) => ({
  metadata: { name },
  spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, lendablePercent: 0, limitResponse } },
});
const schema = (name: string, levelName: string, user: string, precedence: number) => ({
  metadata: { name },
  spec: {
    priorityLevelConfiguration: { name: levelName },
    matchingPrecedence: precedence,
    distinguisherMethod: { type: 'ByUser' },
    rules: [
      {
        subjects: [{ kind: 'User', user: { name: user } }],
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }],
      },
    ],
  },
});

describe('API Priority and Fairness', () => {
  let s: TestServer;
  let jane: TestClient;
  let joe: TestClient;
  let ann: TestClient;
  before(async () => {
    // Two seats in all: every level's nominal share rounds up to one seat.
    s = await startTestServer({
      args: ['--max-requests-inflight=1', '--max-mutating-requests-inflight=1'],
      tokens: ['jane-token,jane,jane,"devs"', 'joe-token,joe,joe,"devs"', 'ann-token,ann,ann,"devs"'],
    });
    jane = newTestClient({ url: s.url, token: 'jane-token', ca: s.ca });
    joe = newTestClient({ url: s.url, token: 'joe-token', ca: s.ca });
    ann = newTestClient({ url: s.url, token: 'ann-token', ca: s.ca });
    const created = [
      await s.client.post(`${FC}/prioritylevelconfigurations`, level('test-reject', { type: 'Reject' })),
      await s.client.post(
        `${FC}/prioritylevelconfigurations`,
        level('test-queue', { type: 'Queue', queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 } }),
      ),
      await s.client.post(`${FC}/flowschemas`, schema('test-jane', 'test-reject', 'jane', 50)),
      await s.client.post(`${FC}/flowschemas`, schema('test-joe', 'test-queue', 'joe', 50)),
    ];
    assert.deepEqual(
      created.map((r) => r.status),
      [201, 201, 201, 201],
    );
    // The controller has the new configuration once an answer names the new schema.
    const uid = created[2].body.metadata.uid;
    await eventually('jane classified as test-jane', async () => (await jane.get(CM)).headers['x-kubernetes-pf-flowschema-uid'] === uid);
  });
  after(async () => {
    for (const c of [jane, joe, ann]) c.close();
    await s.stop();
  });

  /** A POST whose body never ends: it holds its seat until `end()`. */
  const heldWrite = (
    token: string,
    name: string,
    query = '',
  ): { req: ClientRequest; answer: Promise<{ status: number; headers: Record<string, unknown> }> } => {
    let req!: ClientRequest;
    const answer = new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
      req = request(
        `${s.url}${CM}${query}`,
        { method: 'POST', ca: s.ca, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, headers: res.headers });
        },
      );
      req.on('error', reject);
      req.write(`{"metadata":{"name":"${name}"`);
    });
    return { req, answer };
  };
  const executing = async (levelName: string, n: number) =>
    eventually(`${n} executing in ${levelName}`, async () => {
      const dump = (await s.client.get('/debug/api_priority_and_fairness/dump_priority_levels')).text;
      const row = dump.split('\n').find((l) => l.startsWith(`${levelName},`));
      return row?.split(',').map((c) => c.trim())[5] === String(n);
    });

  it('names the matched FlowSchema and priority level by UID on every answer', async () => {
    const fs = (await s.client.get(`${FC}/flowschemas/exempt`)).body;
    const pl = (await s.client.get(`${FC}/prioritylevelconfigurations/exempt`)).body;
    const r = await s.client.get(CM);
    assert.equal(r.headers['x-kubernetes-pf-flowschema-uid'], fs.metadata.uid);
    assert.equal(r.headers['x-kubernetes-pf-prioritylevel-uid'], pl.metadata.uid);
    const other = await ann.get(CM);
    assert.equal(
      other.headers['x-kubernetes-pf-flowschema-uid'],
      (await s.client.get(`${FC}/flowschemas/global-default`)).body.metadata.uid,
    );
  });

  it('a Reject level answers 429 with Retry-After once its seats are taken; exempt and other levels are served', async () => {
    const held = heldWrite('jane-token', 'held-jane');
    await executing('test-reject', 1);
    const refused = await jane.post(CM, { metadata: { name: 'refused' } });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '1');
    assert.equal(refused.text, 'Too many requests, please try again later.\n');
    assert.ok(refused.headers['x-kubernetes-pf-flowschema-uid']);
    assert.equal((await ann.get(CM)).status, 200);
    assert.equal((await s.client.post(CM, { metadata: { name: 'admin-1' } })).status, 201);
    held.req.end('}}');
    assert.equal((await held.answer).status, 201);
    assert.equal((await jane.post(CM, { metadata: { name: 'after' } })).status, 201);
    assert.match(
      (await s.client.get('/metrics')).text,
      /apiserver_flowcontrol_rejected_requests_total\{priority_level="test-reject",flow_schema="test-jane",reason="concurrency-limit"\} 1/,
    );
  });

  it('a flow that comes straight back gets its next 429 after the Retry-After it was given; one that waits it out, at once', async () => {
    // Out of the window of the rejections before.
    await new Promise((r) => setTimeout(r, 1100));
    const held = heldWrite('jane-token', 'held-jane-2');
    try {
      await executing('test-reject', 1);
      const timed = async () => {
        const t0 = Date.now();
        const r = await jane.post(CM, { metadata: { name: 'refused-again' } });
        return { status: r.status, retryAfter: Number(r.headers['retry-after']), ms: Date.now() - t0 };
      };
      const first = await timed();
      assert.equal(first.status, 429);
      assert.ok(first.ms < 500, `the first 429 took ${first.ms} ms`);
      // Straight back: a 429 again, held for the Retry-After it carries (the level's, which may have grown).
      const again = await timed();
      assert.equal(again.status, 429);
      assert.ok(again.retryAfter >= first.retryAfter, `Retry-After ${again.retryAfter} after ${first.retryAfter}`);
      assert.ok(again.ms >= again.retryAfter * 1000 - 50, `the repeated 429 took ${again.ms} ms (Retry-After ${again.retryAfter})`);
      // Another user of the level is another flow: answered at once.
      assert.equal((await ann.get(CM)).status, 200);
      // Waiting out the Retry-After: at once again.
      await new Promise((r) => setTimeout(r, again.retryAfter * 1000 + 100));
      const patient = await timed();
      assert.equal(patient.status, 429);
      assert.ok(patient.ms < 500, `the 429 after waiting took ${patient.ms} ms`);
    } finally {
      held.req.end('}}');
    }
    assert.equal((await held.answer).status, 201);
  });

  it('a Queue level queues, rejects a full queue, and times a wait out at a quarter of ?timeout', async () => {
    const first = heldWrite('joe-token', 'held-joe');
    await executing('test-queue', 1);
    const second = joe.post(CM, { metadata: { name: 'queued' } });
    await eventually('one waiting', async () =>
      /\ntest-queue, +test-joe, +0, +0,/.test((await s.client.get('/debug/api_priority_and_fairness/dump_requests')).text),
    );
    const dump = (await s.client.get('/debug/api_priority_and_fairness/dump_requests?includeRequestDetails=1')).text;
    assert.match(
      dump.split('\n')[0],
      /^PriorityLevelName, +FlowSchemaName, +QueueIndex, +RequestIndexInQueue, +FlowDistingsher, +ArriveTime,/,
    );
    assert.match(dump, /test-queue, +test-joe, +0, +0, +joe, .*joe, +create, +\/api\/v1\/namespaces\/default\/configmaps/);
    const full = await joe.post(CM, { metadata: { name: 'full' } });
    assert.equal(full.status, 429);
    first.req.end('}}');
    assert.equal((await first.answer).status, 201);
    assert.equal((await second).status, 201);
    // A wait longer than a quarter of the request's timeout is a 429 (reason time-out).
    const held = heldWrite('joe-token', 'held-joe-2');
    await executing('test-queue', 1);
    const t0 = Date.now();
    const timedOut = await joe.request('POST', `${CM}?timeout=2s`, { body: { metadata: { name: 'late' } } });
    assert.equal(timedOut.status, 429);
    assert.ok(Date.now() - t0 >= 450, `waited ${Date.now() - t0} ms`);
    held.req.end('}}');
    assert.equal((await held.answer).status, 201);
    const metrics = (await s.client.get('/metrics')).text;
    assert.match(
      metrics,
      /apiserver_flowcontrol_rejected_requests_total\{priority_level="test-queue",flow_schema="test-joe",reason="queue-full"\} 1/,
    );
    assert.match(
      metrics,
      /apiserver_flowcontrol_rejected_requests_total\{priority_level="test-queue",flow_schema="test-joe",reason="time-out"\} 1/,
    );
    assert.match(metrics, /apiserver_flowcontrol_nominal_limit_seats\{priority_level="test-queue"\} 1/);
    const queues = (await s.client.get('/debug/api_priority_and_fairness/dump_queues')).text;
    assert.match(queues, /^PriorityLevelName, +Index, +PendingRequests, +ExecutingRequests, +SeatsInUse, +NextDispatchR,/);
    assert.match(queues, /\ntest-queue, +0, +0, +0, +0, /);
  });

  it('a FlowSchema naming no priority level is Dangling and skipped, and stops being so once the level exists', async () => {
    const created = await s.client.post(`${FC}/flowschemas`, schema('test-ann', 'test-missing', 'ann', 40));
    assert.equal(created.status, 201);
    const dangling = async () =>
      (await s.client.get(`${FC}/flowschemas/test-ann`)).body.status?.conditions?.find((c: { type: string }) => c.type === 'Dangling');
    await eventually('Dangling True', async () => (await dangling())?.status === 'True');
    assert.deepEqual(
      { ...(await dangling()), lastTransitionTime: undefined },
      {
        type: 'Dangling',
        status: 'True',
        reason: 'NotFound',
        message: 'This FlowSchema references the PriorityLevelConfiguration object named "test-missing" but there is no such object',
        lastTransitionTime: undefined,
      },
    );
    // Still served, by the next matching schema.
    const r = await ann.get(CM);
    assert.equal(r.status, 200);
    assert.notEqual(r.headers['x-kubernetes-pf-flowschema-uid'], created.body.metadata.uid);
    assert.equal((await s.client.post(`${FC}/prioritylevelconfigurations`, level('test-missing', { type: 'Reject' }))).status, 201);
    await eventually('Dangling False', async () => (await dangling())?.reason === 'Found');
    await eventually(
      'ann classified as test-ann',
      async () => (await ann.get(CM)).headers['x-kubernetes-pf-flowschema-uid'] === created.body.metadata.uid,
    );
  });

  it('a watch holds its seat only while it starts', async () => {
    const watches = await Promise.all(Array.from({ length: 5 }, () => joe.watch(`${CM}?watch=true`)));
    assert.deepEqual(
      watches.map((w) => w.status),
      [200, 200, 200, 200, 200],
    );
    assert.equal((await joe.post(CM, { metadata: { name: 'while-watching' } })).status, 201);
    for (const w of watches) w.close();
  });
});

describe('--enable-priority-and-fairness=false', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ args: ['--enable-priority-and-fairness=false'] });
  });
  after(async () => s.stop());

  it('keeps the in-flight limits: no flow-control headers, no dumps', async () => {
    const r = await s.client.get(CM);
    assert.equal(r.status, 200);
    assert.equal(r.headers['x-kubernetes-pf-flowschema-uid'], undefined);
    assert.equal((await s.client.get('/debug/api_priority_and_fairness/dump_priority_levels')).status, 404);
  });
});
