/**
 * Dynamic admission webhooks against a real server, each webhook a real HTTPS server with its own CA:
 * configurations act at once (watched), rules and selectors, match conditions in CEL, JSONPatch,
 * reinvocation, refusals with the webhook's code, warnings, failure policies for dead, slow and
 * misbehaving webhooks, dry run and side effects, v1beta1, service references, and the metric.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { type Answer, type Review, startWebhookServer, type WebhookServer } from '../../support/webhook-server.js';

const AR = '/apis/admissionregistration.orch.io/v1';
const NS = 'hooked';
const CM = `/api/v1/namespaces/${NS}/configmaps`;

describe('admission webhooks', () => {
  let s: TestServer;
  let hook: WebhookServer;
  /** Per path: what the webhook answers. */
  const answers = new Map<string, (r: Review) => Answer>();

  before(async () => {
    s = await startTestServer();
    hook = await startWebhookServer(
      (review, path) => (answers.get(path.split('?')[0]) ?? (() => ({ allowed: true })))(review),
      ['hook.web.svc'],
    );
    assert.equal((await s.client.post('/api/v1/namespaces', { metadata: { name: NS, labels: { hooks: 'on' } } })).status, 201);
  });
  after(async () => {
    await s?.stop();
    await hook?.close();
  });

  let n = 0;
  /** A configuration with one webhook for configmaps in namespaces labelled hooks=on; removed after `fn`. */
  async function withHook(
    kind: 'validating' | 'mutating',
    webhook: Record<string, unknown>,
    fn: () => Promise<void>,
    answer?: (r: Review) => Answer,
  ) {
    const name = `hook-${++n}`;
    const path = `/${name}`;
    if (answer) answers.set(path, answer);
    const plural = `${kind}webhookconfigurations`;
    const body = {
      metadata: { name },
      webhooks: [
        {
          name: `${name}.example.com`,
          clientConfig: { url: hook.url(path), caBundle: hook.caBundle },
          rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
          namespaceSelector: { matchLabels: { hooks: 'on' } },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          ...webhook,
        },
      ],
    };
    const created = await s.client.post(`${AR}/${plural}`, body);
    assert.equal(created.status, 201, created.text);
    try {
      await fn();
    } finally {
      assert.equal((await s.client.delete(`${AR}/${plural}/${name}`)).status, 200);
    }
  }
  const cm = (name: string, labels: Record<string, string> = {}) => ({ metadata: { name, labels }, data: { a: '1' } });

  it('a validating webhook refuses with its own code and message, at once after its configuration is stored', async () => {
    const started = Date.now();
    await withHook(
      'validating',
      {},
      async () => {
        const r = await s.client.post(CM, cm('refused', { deny: 'yes' }));
        assert.ok(Date.now() - started < 1000, 'effective within 1 s');
        assert.equal(r.status, 403, r.text);
        assert.equal(r.body.message, `admission webhook "hook-${n}.example.com" denied the request: labelled deny`);
        assert.equal((await s.client.post(CM, cm('allowed'))).status, 201);
      },
      (r) =>
        r.request.object?.metadata.labels?.deny ? { allowed: false, status: { code: 403, message: 'labelled deny' } } : { allowed: true },
    );
    // Gone with its configuration.
    assert.equal((await s.client.post(CM, cm('refused', { deny: 'yes' }))).status, 201);
    const metrics = await s.client.get('/metrics');
    assert.match(
      metrics.text,
      /apiserver_admission_webhook_rejection_count\{name="hook-1.example.com",type="validating",operation="CREATE",error_type="no_error",rejection_code="403"\} 1/,
    );
  });

  it('a mutating webhook’s JSONPatch is applied and its warnings become Warning headers', async () => {
    await withHook(
      'mutating',
      {},
      async () => {
        const r = await s.client.post(CM, cm('patched'));
        assert.equal(r.status, 201, r.text);
        assert.deepEqual(r.body.metadata.labels, { patched: 'true' });
        assert.deepEqual(r.body.data, { a: '1', added: 'by-webhook' });
        assert.match(String(r.headers.warning), /299 - "patched by the webhook"/);
      },
      () => ({
        allowed: true,
        warnings: ['patched by the webhook'],
        patch: [
          { op: 'add', path: '/metadata/labels/patched', value: 'true' },
          { op: 'add', path: '/data/added', value: 'by-webhook' },
        ],
      }),
    );
  });

  it('a patch that breaks the object is refused by validation; one that cannot apply fails per failurePolicy', async () => {
    await withHook(
      'mutating',
      {},
      async () => {
        const r = await s.client.post(CM, cm('broken'));
        assert.equal(r.status, 422, r.text);
      },
      () => ({ allowed: true, patch: [{ op: 'add', path: '/metadata/name', value: 'Not_A_Name' }] }),
    );
    await withHook(
      'mutating',
      {},
      async () => {
        const r = await s.client.post(CM, cm('unpatchable'));
        assert.equal(r.status, 500, r.text);
        assert.match(r.body.message, /the JSONPatch does not apply/);
      },
      () => ({ allowed: true, patch: [{ op: 'replace', path: '/nothing/here', value: 1 }] }),
    );
  });

  it('reinvocationPolicy IfNeeded calls a webhook again once when a later one changed the object', async () => {
    let first = 0;
    await withHook(
      'mutating',
      { reinvocationPolicy: 'IfNeeded' },
      async () => {
        await withHook(
          'mutating',
          {},
          async () => {
            const r = await s.client.post(CM, cm('reinvoked'));
            assert.equal(r.status, 201, r.text);
            assert.equal(first, 2);
            assert.deepEqual(r.body.metadata.labels, { first: 'true', second: 'true' });
          },
          () => ({ allowed: true, patch: [{ op: 'add', path: '/metadata/labels/second', value: 'true' }] }),
        );
      },
      (r) => {
        first++;
        return r.request.object?.metadata.labels?.first
          ? { allowed: true }
          : { allowed: true, patch: [{ op: 'add', path: '/metadata/labels/first', value: 'true' }] };
      },
    );
  });

  it('failurePolicy: a dead, slow, lying or oversized webhook fails the request (Fail) or is skipped (Ignore)', async () => {
    const dead = { clientConfig: { url: 'https://127.0.0.1:1/dead', caBundle: hook.caBundle } };
    await withHook('validating', dead, async () => {
      const r = await s.client.post(CM, cm('dead'));
      assert.equal(r.status, 500);
      assert.match(
        r.body.message,
        /^Internal error occurred: failed calling webhook "hook-\d+.example.com": failed to call webhook: Post "https:\/\/127.0.0.1:1\/dead": connect ECONNREFUSED/,
      );
    });
    await withHook('validating', { ...dead, failurePolicy: 'Ignore' }, async () => {
      assert.equal((await s.client.post(CM, cm('dead-ignored'))).status, 201);
    });
    await withHook(
      'validating',
      { timeoutSeconds: 1 },
      async () => {
        let settled = false;
        const slow = s.client.post(CM, cm('slow'));
        void slow.finally(() => {
          settled = true;
        });
        // The server keeps serving while the webhook hangs: the GET is answered before the create is.
        assert.equal((await s.client.get(`${CM}/dead-ignored`)).status, 200);
        assert.equal(settled, false, 'the GET waited for the hanging webhook');
        const r = await slow;
        assert.equal(r.status, 500);
        assert.match(r.body.message, /context deadline exceeded \(timeout 1s\)/);
      },
      () => ({ delayMs: 3000, answer: { allowed: true } }),
    );
    await withHook(
      'validating',
      {},
      async () => assert.match((await s.client.post(CM, cm('uid'))).body.message, /expected response.uid="[^"]+", got "wrong"/),
      () => ({ allowed: true, uid: 'wrong' }),
    );
    await withHook(
      'validating',
      {},
      async () => assert.match((await s.client.post(CM, cm('garbage'))).body.message, /the response is not JSON/),
      () => ({ raw: 'garbage' }),
    );
    await withHook(
      'validating',
      {},
      async () => assert.match((await s.client.post(CM, cm('huge'))).body.message, /larger than 3145728 bytes/),
      () => ({ raw: 'x'.repeat(10 * 1024 * 1024) }),
    );
    const metrics = await s.client.get('/metrics');
    assert.match(
      metrics.text,
      /apiserver_admission_webhook_rejection_count\{name="hook-\d+.example.com",type="validating",operation="CREATE",error_type="calling_webhook_error",rejection_code="0"\} 1/,
    );
  });

  it('a webhook with side effects refuses dry runs; sideEffects None is called with dryRun true', async () => {
    await withHook('validating', { sideEffects: 'NoneOnDryRun' }, async () => {
      assert.equal((await s.client.post(`${CM}?dryRun=All`, cm('dry'))).status, 201);
      assert.equal(hook.reviews.at(-1)?.request.dryRun, true);
    });
    const some = await s.client.post(`${AR}/validatingwebhookconfigurations`, {
      metadata: { name: 'side-effects' },
      webhooks: [
        {
          name: 'side.example.com',
          clientConfig: { url: hook.url('/side'), caBundle: hook.caBundle },
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
          sideEffects: 'Some',
          admissionReviewVersions: ['v1'],
        },
      ],
    });
    // v1 refuses Some; Kubernetes only allows None and NoneOnDryRun in v1.
    assert.equal(some.status, 422, some.text);
  });

  it('objectSelector, namespaceSelector and matchConditions narrow what is sent; bad CEL is refused when stored', async () => {
    const seen = () => hook.reviews.map((r) => r.request.name);
    await withHook(
      'validating',
      {
        objectSelector: { matchLabels: { watched: 'yes' } },
        matchConditions: [{ name: 'not-skipped', expression: "!object.metadata.name.startsWith('skip')" }],
      },
      async () => {
        hook.reviews.length = 0;
        await s.client.post(CM, cm('unwatched'));
        await s.client.post(CM, cm('skip-me', { watched: 'yes' }));
        await s.client.post(CM, cm('watched', { watched: 'yes' }));
        assert.equal((await s.client.post('/api/v1/namespaces', { metadata: { name: 'unhooked' } })).status, 201);
        await s.client.post('/api/v1/namespaces/unhooked/configmaps', cm('elsewhere', { watched: 'yes' }));
        assert.deepEqual(seen(), ['watched']);
      },
    );
    const bad = await s.client.post(`${AR}/validatingwebhookconfigurations`, {
      metadata: { name: 'bad-cel' },
      webhooks: [
        {
          name: 'cel.example.com',
          clientConfig: { url: hook.url('/cel'), caBundle: hook.caBundle },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          matchConditions: [{ name: 'broken', expression: 'object.metadata.name ==' }],
        },
      ],
    });
    assert.equal(bad.status, 422, bad.text);
    assert.match(bad.body.details.causes[0].message, /compilation failed/);
    assert.equal(bad.body.details.causes[0].field, 'webhooks[0].matchConditions[0].expression');
  });

  it('sends the client credentials of the webhook kubeConfigFile from --admission-control-config-file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-webhook-kubeconfig-'));
    writeFileSync(join(dir, 'webhooks.kubeconfig'), `users:\n- name: 127.0.0.1:${hook.port}\n  user: {token: webhook-secret}\n`);
    const config = join(dir, 'admission.yaml');
    writeFileSync(
      config,
      [
        'apiVersion: apiserver.config.k8s.io/v1',
        'kind: AdmissionConfiguration',
        'plugins:',
        '- name: ValidatingAdmissionWebhook',
        '  configuration:',
        '    apiVersion: apiserver.config.k8s.io/v1',
        '    kind: WebhookAdmissionConfiguration',
        `    kubeConfigFile: ${join(dir, 'webhooks.kubeconfig')}`,
      ].join('\n'),
    );
    const withCreds = await startTestServer({ args: [`--admission-control-config-file=${config}`] });
    try {
      assert.equal((await withCreds.client.post('/api/v1/namespaces', { metadata: { name: NS, labels: { hooks: 'on' } } })).status, 201);
      const created = await withCreds.client.post(`${AR}/validatingwebhookconfigurations`, {
        metadata: { name: 'with-creds' },
        webhooks: [
          {
            name: 'creds.example.com',
            clientConfig: { url: hook.url('/creds'), caBundle: hook.caBundle },
            rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
            sideEffects: 'None',
            admissionReviewVersions: ['v1'],
          },
        ],
      });
      assert.equal(created.status, 201, created.text);
      assert.equal((await withCreds.client.post(CM, cm('credentialed'))).status, 201);
      assert.equal(hook.authorizations.at(-1), 'Bearer webhook-secret');
    } finally {
      await withCreds.stop();
    }
  });

  it('speaks v1beta1 to a webhook that lists only it, and reaches a webhook through a Service and its Endpoints', async () => {
    await withHook('validating', { admissionReviewVersions: ['v1beta1'] }, async () => {
      assert.equal((await s.client.post(CM, cm('beta'))).status, 201);
      assert.equal(hook.reviews.at(-1)?.apiVersion, 'admission.orch.io/v1beta1');
    });
    assert.equal((await s.client.post('/api/v1/namespaces', { metadata: { name: 'web' } })).status, 201);
    const svc = await s.client.post('/api/v1/namespaces/web/services', {
      metadata: { name: 'hook' },
      spec: { ports: [{ port: 443, targetPort: hook.port }] },
    });
    assert.equal(svc.status, 201, svc.text);
    const ep = await s.client.post('/api/v1/namespaces/web/endpoints', {
      metadata: { name: 'hook' },
      subsets: [{ addresses: [{ ip: hook.externalIP }], ports: [{ port: hook.port }] }],
    });
    assert.equal(ep.status, 201, ep.text);
    answers.set('/via-service', () => ({ allowed: false, status: { message: 'reached through the service' } }));
    await withHook(
      'validating',
      { clientConfig: { service: { namespace: 'web', name: 'hook', path: '/via-service' }, caBundle: hook.caBundle } },
      async () => {
        const r = await s.client.post(CM, cm('via-service'));
        assert.equal(r.status, 400, r.text);
        assert.equal(r.body.message, `admission webhook "hook-${n}.example.com" denied the request: reached through the service`);
      },
    );
  });
});
