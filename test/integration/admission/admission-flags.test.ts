/**
 * The admission flags on a real server: --enable-admission-plugins, --disable-admission-plugins,
 * --admission-control-config-file, and that reads never reach admission.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseServerOptions } from '../../../apiserver/server/options.js';
import { OptionsError } from '../../../apiserver/component-base/flag/options-error.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.stop();
});
async function start(args: string[], waitReady = true) {
  const s = await startTestServer({ args, waitReady });
  servers.push(s);
  return s;
}

describe('admission flags', () => {
  it('--enable-admission-plugins=AlwaysDeny refuses writes with 403 but never reads', async () => {
    // Even the server's own bootstrap writes are refused (as in Kubernetes), so it never becomes ready.
    const s = await start(['--enable-admission-plugins=AlwaysDeny'], false);
    const w = await s.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'c' } });
    assert.equal(w.status, 403, w.text);
    assert.equal(w.body.message, 'configmaps "c" is forbidden: admission control is denying all modifications');
    // Reads still answer.
    assert.equal((await s.client.get('/api/v1/namespaces/default/configmaps')).status, 200);
    assert.equal((await s.client.get('/api/v1/namespaces')).status, 200);
    assert.equal((await s.client.get('/api/v1/namespaces/default')).status, 404);
  });

  it('--disable-admission-plugins turns a default off: without NamespaceLifecycle a missing namespace is not checked', async () => {
    const on = await start([]);
    assert.equal((await on.client.post('/api/v1/namespaces/nowhere/configmaps', { metadata: { name: 'c' } })).status, 404);
    const off = await start(['--disable-admission-plugins=NamespaceLifecycle']);
    assert.equal((await off.client.post('/api/v1/namespaces/nowhere/configmaps', { metadata: { name: 'c' } })).status, 201);
  });

  it('refuses unknown plugin names and overlaps at start', () => {
    assert.throws(
      () => parseServerOptions(['--enable-admission-plugins=Nope']),
      (e: Error) => {
        assert.ok(e instanceof OptionsError);
        assert.equal(e.message, 'enable-admission-plugins plugin "Nope" is unknown');
        return true;
      },
    );
    assert.throws(
      () => parseServerOptions(['--enable-admission-plugins=AlwaysDeny', '--disable-admission-plugins=AlwaysDeny']),
      /\[AlwaysDeny\] in enable-admission-plugins and disable-admission-plugins overlapped/,
    );
  });

  it('--admission-control-config-file configures a plugin: EventRateLimit from a file next to it answers 429', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-admission-'));
    writeFileSync(
      join(dir, 'events.yaml'),
      'apiVersion: eventratelimit.admission.k8s.io/v1alpha1\nkind: Configuration\nlimits:\n- type: Namespace\n  qps: 0.01\n  burst: 2\n',
    );
    const config = join(dir, 'admission.yaml');
    writeFileSync(
      config,
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  path: events.yaml\n',
    );
    const s = await start(['--enable-admission-plugins=EventRateLimit', `--admission-control-config-file=${config}`]);
    const event = (i: number) => ({
      metadata: { name: `e${i}` },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
      reason: 'R',
      message: 'm',
    });
    assert.equal((await s.client.post('/api/v1/namespaces/default/events', event(1))).status, 201);
    assert.equal((await s.client.post('/api/v1/namespaces/default/events', event(2))).status, 201);
    const r = await s.client.post('/api/v1/namespaces/default/events', event(3));
    assert.equal(r.status, 429, r.text);
    assert.equal(r.body.message, 'Too many requests: limit reached on type Namespace for key default');
  });

  it('--admission-control-config-file that cannot be read stops the start with the reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-admission-'));
    const bad = join(dir, 'admission.yaml');
    writeFileSync(bad, 'kind: Nope\n');
    await assert.rejects(start([`--admission-control-config-file=${bad}`]), /want kind AdmissionConfiguration/);
  });
});
