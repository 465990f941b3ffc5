/**
 * The client library against a real orch-apiserver (embedded store): kubeconfig credentials, REST
 * calls, errors, paged lists, watches and discovery.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile, readFile, chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { ApiClient } from '../../../controllers/client/api-client.js';
import { discoverResources, preferredResourcesWith, RestMapper } from '../../../controllers/client/discovery.js';
import { ApiError, isApiError } from '../../../apiserver/api/status.js';

describe('client library against orch-apiserver', () => {
  let srv: TestServer;
  let dir: string;
  let client: ApiClient;

  /** A kubeconfig for the test server with this user stanza. */
  async function kubeconfig(name: string, user: Record<string, unknown>): Promise<string> {
    const file = join(dir, `${name}.kubeconfig`);
    await writeFile(
      file,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'orch', cluster: { server: srv.url, 'certificate-authority-data': Buffer.from(srv.ca).toString('base64') } }],
        users: [{ name: 'u', user }],
        contexts: [{ name: 'orch', context: { cluster: 'orch', user: 'u', namespace: 'default' } }],
        'current-context': 'orch',
      }),
    );
    return file;
  }

  before(async () => {
    srv = await startTestServer();
    dir = await mkdtemp(join(tmpdir(), 'orch-client-'));
    client = ApiClient.fromKubeconfig(await kubeconfig('token', { token: srv.token }));
  });
  after(async () => {
    client?.close();
    await srv?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const configmaps = () => client.resource({ group: '', version: 'v1', resource: 'configmaps' }, 'default');

  it('creates, reads, updates, patches and deletes', async () => {
    const created = await configmaps().create({ metadata: { name: 'crud' }, data: { a: '1' } });
    assert.equal(created.metadata.namespace, 'default');
    const got = await configmaps().get('crud');
    assert.deepEqual(got.data, { a: '1' });
    const updated = await configmaps().update({ ...got, data: { a: '2' } });
    assert.notEqual(updated.metadata.resourceVersion, got.metadata.resourceVersion);
    const patched = await configmaps().patch('crud', { data: { b: '3' } });
    assert.deepEqual(patched.data, { a: '2', b: '3' });
    const status = await configmaps().delete('crud');
    assert.equal((status as { status?: string }).status, 'Success');
  });

  it("fails with the server's Status as an ApiError", async () => {
    await assert.rejects(configmaps().get('missing'), (err: unknown) => {
      assert.ok(isApiError(err, 'NotFound'));
      assert.equal(err.code, 404);
      assert.equal(err.message, 'configmaps "missing" not found');
      return true;
    });
    await configmaps().create({ metadata: { name: 'twice' } });
    await assert.rejects(
      configmaps().create({ metadata: { name: 'twice' } }),
      (err: unknown) => isApiError(err, 'AlreadyExists') && err.code === 409,
    );
    await assert.rejects(client.request('GET', '/api/v1/nothing-here'), (err: unknown) => err instanceof ApiError && err.code === 404);
    assert.equal(await client.request('GET', '/readyz'), 'ok', 'a non-JSON answer is its text');
  });

  it('lists every item in pages', async () => {
    const ns = client.resource({ group: '', version: 'v1', resource: 'namespaces' });
    await ns.create({ metadata: { name: 'paged' } });
    const cms = configmaps().inNamespace('paged');
    for (let i = 0; i < 7; i++) await cms.create({ metadata: { name: `cm-${i}` } });
    const page = await cms.list({ limit: 3 });
    assert.equal(page.items.length, 3);
    assert.ok(page.metadata.continue);
    const all = await cms.listAll({}, 3);
    assert.deepEqual(
      all.items.map((c) => c.metadata.name),
      [0, 1, 2, 3, 4, 5, 6].map((i) => `cm-${i}`),
    );
    assert.equal(all.metadata.continue, undefined);
    assert.match(all.metadata.resourceVersion ?? '', /^\d+$/);
  });

  it('watches from a resourceVersion until aborted', async () => {
    const rv = (await configmaps().list()).metadata.resourceVersion;
    const abort = new AbortController();
    const events = configmaps().watch({ resourceVersion: rv }, abort.signal);
    await configmaps().create({ metadata: { name: 'watched' } });
    await configmaps().patch('watched', { data: { x: 'y' } });
    await configmaps().delete('watched');
    const seen: string[] = [];
    for await (const ev of events) {
      seen.push(`${ev.type} ${(ev.object as { metadata: { name: string } }).metadata.name}`);
      if (seen.length === 3) abort.abort();
    }
    assert.deepEqual(seen, ['ADDED watched', 'MODIFIED watched', 'DELETED watched']);
  });

  it('discovers served resources and maps apiVersion + kind to them', async () => {
    const found = await discoverResources(client);
    assert.equal(found.failed.size, 0);
    const cm = found.resources.find((r) => r.group === '' && r.resource === 'configmaps')!;
    assert.deepEqual([cm.kind, cm.namespaced, cm.preferred], ['ConfigMap', true, true]);
    assert.ok(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'].every((v) => cm.verbs.includes(v)));
    const lease = found.resources.find((r) => r.resource === 'leases')!;
    assert.equal(lease.group, 'coordination.orch.io');
    assert.ok(!found.resources.some((r) => r.resource.includes('/')), 'subresources are left out');
    assert.ok(preferredResourcesWith(found, ['delete']).some((r) => r.resource === 'namespaces'));
    const mapper = new RestMapper(found.resources);
    assert.equal(mapper.resourceFor('v1', 'Namespace')?.namespaced, false);
    assert.equal(mapper.resourceFor('coordination.orch.io/v1', 'Lease')?.resource, 'leases');
    assert.equal(mapper.resourceFor('v1', 'Nothing'), undefined);
  });

  it('reads a token file, and uses the namespace of the context', async () => {
    await writeFile(join(dir, 'token'), `${srv.token}\n`);
    const c = ApiClient.fromKubeconfig(await kubeconfig('tokenfile', { tokenFile: 'token' }));
    try {
      assert.equal(c.config.namespace, 'default');
      assert.ok((await c.resource({ group: '', version: 'v1', resource: 'namespaces' }).get('default')).metadata.uid);
    } finally {
      c.close();
    }
  });

  it('authenticates with an exec plugin; a 401 runs the plugin again and the request is retried', async () => {
    // The first run prints a wrong token, later runs the right one.
    const plugin = join(dir, 'token-plugin.sh');
    await writeFile(
      plugin,
      `#!/bin/sh
n=$(cat "${dir}/runs" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "${dir}/runs"
if [ "$n" = 1 ]; then t=wrong; else t="${srv.token}"; fi
printf '{"apiVersion":"client.authentication.orch.io/v1","kind":"ExecCredential","status":{"token":"%s"}}' "$t"
`,
    );
    await chmod(plugin, 0o755);
    const c = ApiClient.fromKubeconfig(
      await kubeconfig('exec', {
        exec: { apiVersion: 'client.authentication.orch.io/v1', command: './token-plugin.sh', interactiveMode: 'Never' },
      }),
    );
    try {
      const ns = await c.resource({ group: '', version: 'v1', resource: 'namespaces' }).get('default');
      assert.equal(ns.metadata.name, 'default');
      await c.resource({ group: '', version: 'v1', resource: 'namespaces' }).get('default');
      assert.equal((await readFile(join(dir, 'runs'), 'utf8')).trim(), '2', 'one run for the 401, none after');
    } finally {
      c.close();
    }
  });
});
