/**
 * Which operations reach admission webhooks, as Kubernetes 1.28 sends them: DELETE to mutating and
 * validating webhooks (with the stored object), CONNECT of pods/exec, attach, portforward and the
 * proxies (never pods/log, a read), a Binding as a CREATE of pods/binding, and a mutating webhook's
 * patch checked against the schema before anything else sees it.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { serviceAccountSigningArgs } from '../../support/service-account-signing.js';
import { createDefaultServiceAccount, createNamespace } from '../../support/namespaces.js';
import { type Answer, type Review, startWebhookServer, type WebhookServer } from '../../support/webhook-server.js';

const AR = '/apis/admissionregistration.orch.io/v1';
const NS = 'ops';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const PODS = `/api/v1/namespaces/${NS}/pods`;

describe('admission webhooks: the operations that reach them', () => {
  let s: TestServer;
  let hook: WebhookServer;
  let dir: string;
  const answers = new Map<string, (r: Review) => Answer>();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-webhook-ops-'));
    s = await startTestServer({ args: serviceAccountSigningArgs(dir) });
    hook = await startWebhookServer((review, path) => (answers.get(path.split('?')[0]) ?? (() => ({ allowed: true })))(review));
    await createNamespace(s.client, NS);
    await createDefaultServiceAccount(s.client, NS);
  });
  after(async () => {
    await s?.stop();
    await hook?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  let n = 0;
  /** One webhook with `rules` (and `extra` fields) answering with `answer`; removed after `fn`. */
  async function withHook(
    kind: 'validating' | 'mutating',
    rules: Record<string, unknown>[],
    extra: Record<string, unknown>,
    answer: (r: Review) => Answer,
    fn: (reviews: () => Review[]) => Promise<void>,
  ) {
    const name = `ops-${++n}`;
    const path = `/${name}`;
    answers.set(path, answer);
    const plural = `${kind}webhookconfigurations`;
    const created = await s.client.post(`${AR}/${plural}`, {
      metadata: { name },
      webhooks: [
        {
          name: `${name}.example.com`,
          clientConfig: { url: hook.url(path), caBundle: hook.caBundle },
          rules,
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          ...extra,
        },
      ],
    });
    assert.equal(created.status, 201, created.text);
    const start = hook.reviews.length;
    try {
      await fn(() => hook.reviews.slice(start));
    } finally {
      assert.equal((await s.client.delete(`${AR}/${plural}/${name}`)).status, 200);
    }
  }
  const cmRule = (operations: string[]) => ({ operations, apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] });

  it('DELETE reaches mutating and validating webhooks with the stored object; a mutating one cannot patch it', async () => {
    assert.equal((await s.client.post(CM, { metadata: { name: 'kept', labels: { keep: 'yes' } } })).status, 201);
    assert.equal((await s.client.post(CM, { metadata: { name: 'gone' } })).status, 201);
    const refuseKept = (r: Review): Answer =>
      (r.request.oldObject as { metadata: { labels?: Record<string, string> } } | null)?.metadata.labels?.keep === 'yes'
        ? { allowed: false, status: { code: 403, message: 'kept' } }
        : { allowed: true };
    for (const kind of ['mutating', 'validating'] as const) {
      await withHook(kind, [cmRule(['DELETE'])], {}, refuseKept, async (reviews) => {
        const refused = await s.client.delete(`${CM}/kept`);
        assert.equal(refused.status, 403, refused.text);
        assert.equal(refused.body.message, `admission webhook "ops-${n}.example.com" denied the request: kept`);
        const review = reviews()[0]!;
        assert.equal(review.request.operation, 'DELETE');
        assert.equal(review.request.object, null);
        assert.equal((review.request.oldObject as { metadata: { name: string } }).metadata.name, 'kept');
      });
    }
    await withHook(
      'mutating',
      [cmRule(['DELETE'])],
      {},
      () => ({ allowed: true, patch: [{ op: 'add', path: '/data', value: {} }] }),
      async () => {
        const r = await s.client.delete(`${CM}/gone`);
        assert.equal(r.status, 500, r.text);
        assert.match(r.body.message, /attempted to modify the object, which is not supported for this operation/);
      },
    );
    assert.equal((await s.client.delete(`${CM}/gone`)).status, 200);
  });

  it("request.options is the operation's CreateOptions, UpdateOptions or DeleteOptions of the meta group", async () => {
    const rules = [cmRule(['CREATE', 'UPDATE', 'DELETE'])];
    await withHook(
      'validating',
      rules,
      {},
      () => ({ allowed: true }),
      async (reviews) => {
        const created = await s.client.post(`${CM}?fieldManager=maker&fieldValidation=Strict`, { metadata: { name: 'opts' } });
        assert.equal(created.status, 201, created.text);
        const put = await s.client.put(`${CM}/opts?dryRun=All`, { ...created.body, data: { a: '1' } });
        assert.equal(put.status, 200, put.text);
        const patched = await s.client.patch(`${CM}/opts?fieldManager=patcher`, { data: { b: '2' } }, 'application/merge-patch+json');
        assert.equal(patched.status, 200, patched.text);
        const deleted = await s.client.delete(`${CM}/opts`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
        assert.equal(deleted.status, 200, deleted.text);
        assert.deepEqual(
          reviews().map((r) => [r.request.operation, r.request.options]),
          [
            ['CREATE', { kind: 'CreateOptions', apiVersion: 'meta.orch.io/v1', fieldManager: 'maker', fieldValidation: 'Strict' }],
            ['UPDATE', { kind: 'UpdateOptions', apiVersion: 'meta.orch.io/v1', dryRun: ['All'] }],
            ['UPDATE', { kind: 'UpdateOptions', apiVersion: 'meta.orch.io/v1', fieldManager: 'patcher' }],
            ['DELETE', { kind: 'DeleteOptions', apiVersion: 'meta.orch.io/v1', propagationPolicy: 'Background' }],
          ],
        );
      },
    );
  });

  it('a patch that breaks the schema fails the request (Fail) with why, or is dropped (Ignore)', async () => {
    const breaking = () => ({ allowed: true, patch: [{ op: 'add', path: '/data/a', value: 5 }] });
    await withHook('mutating', [cmRule(['CREATE'])], {}, breaking, async () => {
      const r = await s.client.post(CM, { metadata: { name: 'typed' }, data: { a: '1' } });
      assert.equal(r.status, 500, r.text);
      assert.match(
        r.body.message,
        /failed calling webhook "ops-\d+.example.com": the patched object does not match the schema of ConfigMap: .*data\[a\].*string/,
      );
      assert.equal((await s.client.get(`${CM}/typed`)).status, 404);
    });
    await withHook('mutating', [cmRule(['CREATE'])], { failurePolicy: 'Ignore' }, breaking, async () => {
      const r = await s.client.post(CM, { metadata: { name: 'typed' }, data: { a: '1' } });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body.data, { a: '1' });
    });
  });

  it('CONNECT of pods/exec, attach, portforward and proxy reaches webhooks with its options; pods/log never does', async () => {
    const rule = { operations: ['CONNECT'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/*'] };
    const refuse = (r: Review): Answer => ({ allowed: false, status: { code: 403, message: `no ${r.request.kind.kind}` } });
    await withHook('validating', [rule], {}, refuse, async (reviews) => {
      const exec = await s.client.request('POST', `${PODS}/web/exec?command=ls&command=-l&stdout=true`);
      assert.equal(exec.status, 403, exec.text);
      assert.equal(exec.body.message, `admission webhook "ops-${n}.example.com" denied the request: no PodExecOptions`);
      const review = reviews()[0]!;
      assert.equal(review.request.operation, 'CONNECT');
      assert.equal(review.request.subResource, 'exec');
      assert.deepEqual(review.request.kind, { group: '', version: 'v1', kind: 'PodExecOptions' });
      assert.deepEqual((review.request.object as unknown as { command: string[] }).command, ['ls', '-l']);
      assert.equal((await s.client.request('POST', `${PODS}/web/attach?stdout=true`)).status, 403);
      assert.equal((await s.client.request('POST', `${PODS}/web/portforward?ports=80`)).status, 403);
      const proxied = await s.client.get(`${PODS}/web/proxy/some/path`);
      assert.equal(proxied.status, 403);
      assert.equal(proxied.body.message, `admission webhook "ops-${n}.example.com" denied the request: no PodProxyOptions`);
      assert.equal((reviews().at(-1)!.request.object as unknown as { path: string }).path, '/some/path');
      // A read: the webhook never sees it, and the missing pod is what answers.
      const before = reviews().length;
      assert.equal((await s.client.get(`${PODS}/web/log`)).status, 404);
      assert.equal(reviews().length, before);
    });
  });

  it('kinds that are only answered (TokenReview, access reviews, serviceaccounts/token) are admitted as CREATEs', async () => {
    const rules = [
      { operations: ['CREATE'], apiGroups: ['authentication.orch.io', 'authorization.orch.io'], apiVersions: ['v1'], resources: ['*'] },
      { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts/token'] },
    ];
    const refuse = (r: Review): Answer => ({ allowed: false, status: { code: 403, message: `no ${r.request.kind.kind}` } });
    await withHook('validating', rules, {}, refuse, async (reviews) => {
      const review = await s.client.post('/apis/authentication.orch.io/v1/tokenreviews', { spec: { token: 'x' } });
      assert.equal(review.status, 403, review.text);
      assert.equal(review.body.message, `admission webhook "ops-${n}.example.com" denied the request: no TokenReview`);
      const access = await s.client.post(`/apis/authorization.orch.io/v1/namespaces/${NS}/localsubjectaccessreviews`, {
        spec: { user: 'u', resourceAttributes: { namespace: NS, verb: 'get', resource: 'pods' } },
      });
      assert.equal(access.status, 403, access.text);
      const token = await s.client.post(`/api/v1/namespaces/${NS}/serviceaccounts/default/token`, { spec: { audiences: [] } });
      assert.equal(token.status, 403, token.text);
      assert.equal(token.body.message, `admission webhook "ops-${n}.example.com" denied the request: no TokenRequest`);
      assert.deepEqual(
        reviews().map((r) => `${r.request.operation} ${r.request.resource.resource}/${r.request.subResource ?? ''}`),
        ['CREATE tokenreviews/', 'CREATE localsubjectaccessreviews/', 'CREATE serviceaccounts/token'],
      );
    });
    // Without the webhook they are answered as before.
    const answered = await s.client.post('/apis/authentication.orch.io/v1/tokenreviews', { spec: { token: 'x' } });
    assert.equal(answered.status, 201, answered.text);
    assert.equal(answered.body.kind, 'TokenReview');
    assert.equal(answered.body.status.authenticated, undefined);
  });

  it('binding a pod is a CREATE of a Binding on pods/binding, and the pod write it makes is not admitted again', async () => {
    const created = await s.client.post(PODS, { metadata: { name: 'unbound' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    assert.equal(created.status, 201, created.text);
    const rules = [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods', 'pods/*', 'bindings'] }];
    const refuseNodeX = (r: Review): Answer =>
      (r.request.object as { target?: { name?: string } } | null)?.target?.name === 'node-x'
        ? { allowed: false, status: { code: 403, message: 'not node-x' } }
        : { allowed: true };
    await withHook('validating', rules, {}, refuseNodeX, async (reviews) => {
      const refused = await s.client.post(`${PODS}/unbound/binding`, { metadata: { name: 'unbound' }, target: { name: 'node-x' } });
      assert.equal(refused.status, 403, refused.text);
      assert.equal((await s.client.get(`${PODS}/unbound`)).body.spec.nodeName, undefined);
      const review = reviews()[0]!;
      assert.equal(review.request.operation, 'CREATE');
      assert.equal(review.request.subResource, 'binding');
      assert.equal(review.request.name, 'unbound');
      assert.deepEqual(review.request.kind, { group: '', version: 'v1', kind: 'Binding' });
      const bound = await s.client.post(`${PODS}/unbound/binding`, { metadata: { name: 'unbound' }, target: { name: 'node-1' } });
      assert.equal(bound.status, 201, bound.text);
      assert.equal((await s.client.get(`${PODS}/unbound`)).body.spec.nodeName, 'node-1');
      assert.deepEqual(
        reviews().map((r) => `${r.request.operation} ${r.request.resource.resource}/${r.request.subResource ?? ''} ${r.request.kind.kind}`),
        ['CREATE pods/binding Binding', 'CREATE pods/binding Binding'],
      );
    });
  });
});
