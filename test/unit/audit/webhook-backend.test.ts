import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newWebhookBackend } from '../../../apiserver/audit/webhook-backend.js';
import type { AuditEvent } from '../../../apiserver/audit/types.js';
import { startWebhookServer, type WebhookServer } from '../../support/webhook-server.js';

const event = (i: number) => ({ kind: 'Event', auditID: `id-${i}` }) as unknown as AuditEvent;

describe('audit webhook backend', () => {
  let dir: string;
  let hook: WebhookServer;
  let kubeconfig: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-audit-webhook-'));
    hook = await startWebhookServer(() => ({ raw: '{}' }));
    kubeconfig = join(dir, 'kubeconfig');
    await writeFile(
      kubeconfig,
      JSON.stringify({ clusters: [{ name: 'c', cluster: { server: hook.url('/'), 'certificate-authority-data': hook.caBundle } }] }),
    );
  });
  after(async () => {
    await hook.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends full batches at once and the rest after the max wait, as EventLists', async () => {
    const errors: Error[] = [];
    const b = newWebhookBackend({
      configFile: kubeconfig,
      apiVersion: 'audit.orch.io/v1',
      batchMaxSize: 2,
      batchMaxWaitMs: 100,
      initialBackoffMs: 10,
      onError: (e) => errors.push(e),
    });
    b.process([event(1), event(2), event(3)]);
    b.process([event(4), event(5)]);
    await new Promise((r) => setTimeout(r, 400));
    const lists = hook.reviews.splice(0) as unknown as { kind: string; apiVersion: string; items: { auditID: string }[] }[];
    assert.ok(lists.every((l) => l.kind === 'EventList' && l.apiVersion === 'audit.orch.io/v1'));
    assert.deepEqual(lists.map((l) => l.items.map((e) => e.auditID)).sort(), [['id-1', 'id-2'], ['id-3', 'id-4'], ['id-5']]);
    await b.shutdown();
    assert.deepEqual(errors, []);
  });

  it('drops what exceeds its buffer instead of growing, and reports it', async () => {
    const errors: Error[] = [];
    const b = newWebhookBackend({
      configFile: kubeconfig,
      apiVersion: 'audit.orch.io/v1',
      batchMaxSize: 100_000,
      batchMaxWaitMs: 60_000,
      initialBackoffMs: 10,
      onError: (e) => errors.push(e),
    });
    b.process(Array.from({ length: 10_005 }, (_, i) => event(i)));
    assert.deepEqual(
      errors.map((e) => e.message),
      ['audit webhook buffer full: dropped 5 events'],
    );
    await b.shutdown();
    const lists = hook.reviews.splice(0) as unknown as { items: unknown[] }[];
    assert.equal(
      lists.reduce((n, l) => n + l.items.length, 0),
      10_000,
    );
  });

  it('retries a failed send, then drops the batch and reports it', async () => {
    const errors: Error[] = [];
    await writeFile(join(dir, 'closed'), JSON.stringify({ clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1/' } }] }));
    const b = newWebhookBackend({
      configFile: join(dir, 'closed'),
      apiVersion: 'audit.orch.io/v1',
      batchMaxSize: 1,
      batchMaxWaitMs: 10,
      initialBackoffMs: 10,
      onError: (e) => errors.push(e),
    });
    b.process([event(1)]);
    await b.shutdown();
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /^dropped 1 audit events: .*ECONNREFUSED/);
  });
});
