/**
 * End to end with /usr/bin/kubectl and the kubectl-orch plugin on the PATH (as the package installs
 * it): `kubectl orch history`, `diff` (plain and coloured), `deleted`, `restore` of one object and
 * of a namespace with its contents, against a real orch-apiserver with the ledger on.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { newKubectl, KUBECTL } from '../support/kubectl.js';
import { createNamespace } from '../support/namespaces.js';
import { run } from '../support/processes.js';

const PLUGIN = fileURLToPath(new URL('../../scripts/kubectl-orch.js', import.meta.url));

describe('kubectl orch (the revision ledger plugin)', () => {
  let s: TestServer;
  let dir: string;
  let k: ReturnType<typeof newKubectl>;
  let env: Record<string, string>;
  // kubectl runs a plugin only when no flag comes before its name: the kubeconfig goes by KUBECONFIG.
  const orch = (args: string[]) => run(KUBECTL, ['orch', ...args], { env: { ...k.env, ...env } });
  const orchOk = async (args: string[]) => {
    const r = await orch(args);
    if (r.code !== 0) throw new Error(`kubectl orch ${args.join(' ')} exited ${r.code}:\n${r.stderr}\n${r.stdout}`);
    return r.stdout;
  };
  before(async () => {
    s = await startTestServer({ args: ['--history-retention=24h'] });
    dir = mkdtempSync(join(tmpdir(), 'kubectl-orch-'));
    // What npm's bin link does: an executable named kubectl-orch on the PATH.
    writeFileSync(join(dir, 'kubectl-orch'), `#!/bin/sh\nexec ${process.execPath} ${PLUGIN} "$@"\n`);
    chmodSync(join(dir, 'kubectl-orch'), 0o755);
    env = { PATH: `${dir}:${process.env.PATH}`, ORCH_KUBECTL: KUBECTL };
    k = newKubectl(s.kubeconfig);
    await createNamespace(s.client, 'web');
  });
  after(async () => {
    await s?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('kubectl plugin list finds it', async () => {
    const out = await k.ok(['plugin', 'list'], { env });
    assert.match(out, /kubectl-orch/);
  });

  it('history and diff of a Deployment', async () => {
    const labels = { app: 'web' };
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } },
      },
    };
    await k.ok(['apply', '-f', '-'], { input: JSON.stringify(dep), env });
    await k.ok(['-n', 'web', 'scale', 'deploy/web', '--replicas=3'], { env });
    await k.ok(['-n', 'web', 'set', 'image', 'deploy/web', 'c=nginx:2'], { env });
    const out = await orchOk(['history', 'deploy/web', '-n', 'web']);
    const rows = out.trim().split('\n');
    assert.match(rows[0], /^RESOURCEVERSION\s+TIME\s+OPERATION\s+USER\s+FIELDMANAGER\s+CHANGE$/);
    assert.equal(rows.length, 4, out);
    assert.match(rows[1], /patch\s+admin\s+kubectl-set/);
    assert.match(rows[3], /(apply|patch|create)\s+admin/);
    const rvs = rows.slice(1).map((r) => r.split(/\s+/)[0]);
    const plain = await orchOk(['diff', 'deploy/web', '-n', 'web', '--from', rvs[2], '--to', rvs[0]]);
    assert.match(plain, /^--- deploy\/web@\d+\n\+\+\+ deploy\/web@\d+\n@@ /);
    assert.match(plain, /^-\s+replicas: 1$/m);
    assert.match(plain, /^\+\s+replicas: 3$/m);
    assert.match(plain, /^-\s+- image: nginx:1$/m);
    assert.match(plain, /^\+\s+- image: nginx:2$/m);
    assert.ok(!plain.includes('\x1b['), 'no colour off a terminal');
    const coloured = await orchOk(['diff', 'deploy/web', '-n', 'web', '--from', rvs[2], '--to', rvs[0], '--color']);
    assert.match(coloured, /\x1b\[32m\+\s+replicas: 3\x1b\[0m/);
    assert.match(coloured, /\x1b\[31m-\s+replicas: 1\x1b\[0m/);
    // A revision outside the window or never the object's: kubectl's error, exit 1.
    const bad = await orch(['diff', 'deploy/web', '-n', 'web', '--from', '1', '--to', rvs[0]]);
    assert.notEqual(bad.code, 0);
  });

  it('deleted lists, restore brings back a ConfigMap with its uid', async () => {
    await k.ok(['-n', 'web', 'create', 'configmap', 'x', '--from-literal=k=v'], { env });
    const uid = (await k.ok(['-n', 'web', 'get', 'configmap', 'x', '-o', 'jsonpath={.metadata.uid}'], { env })).trim();
    await k.ok(['-n', 'web', 'delete', 'configmap', 'x'], { env });
    const listed = await orchOk(['deleted', '-n', 'web']);
    assert.match(listed, /^NAMESPACE\s+KIND\s+NAME\s+UID\s+DELETED\s+BY\s+RESOURCEVERSION$/m);
    assert.match(listed, new RegExp(`^web\\s+configmaps\\s+x\\s+${uid}\\s+\\S+\\s+admin\\s+\\d+$`, 'm'));
    const all = await orchOk(['deleted', '-A']);
    assert.match(all, new RegExp(uid));
    const restored = await orchOk(['restore', 'configmap/x', '-n', 'web']);
    assert.equal(restored.trim(), `configmap/x -n web restored (uid ${uid})`);
    assert.equal((await k.ok(['-n', 'web', 'get', 'cm', 'x', '-o', 'jsonpath={.metadata.uid} {.data.k}'], { env })).trim(), `${uid} v`);
    // Again: the name is taken, kubectl reports the 409.
    const again = await orch(['restore', 'configmap/x', '-n', 'web']);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /AlreadyExists|already exists/);
  });

  it('restore namespace/team-a brings back the namespace and its contents', async () => {
    await createNamespace(s.client, 'team-a');
    for (let i = 0; i < 5; i++) await k.ok(['-n', 'team-a', 'create', 'configmap', `c${i}`, `--from-literal=i=${i}`], { env });
    await k.ok(['-n', 'team-a', 'create', 'secret', 'generic', 's', '--from-literal=p=x'], { env });
    const uids = (await k.ok(['-n', 'team-a', 'get', 'cm,secret', '-o', 'jsonpath={.items[*].metadata.uid}'], { env })).trim();
    // No namespace controller runs here: do what it does once the namespace is Terminating (delete the
    // contents, then finalize). Contents deleted before the namespace's deletion are not its to restore.
    assert.equal((await s.client.request('DELETE', '/api/v1/namespaces/team-a')).status, 200);
    await k.ok(['-n', 'team-a', 'delete', 'cm,secret', '--all'], { env });
    const ns = await s.client.get('/api/v1/namespaces/team-a');
    const fin = await s.client.put('/api/v1/namespaces/team-a/finalize', { ...ns.body, spec: { finalizers: [] } });
    assert.equal(fin.status, 200, fin.text);
    assert.equal((await s.client.get('/api/v1/namespaces/team-a')).status, 404);
    const out = await orchOk(['restore', 'namespace/team-a']);
    assert.match(out, /^namespace\/team-a restored/m);
    assert.equal(
      out
        .trim()
        .split('\n')
        .filter((l) => l.includes('restored')).length,
      7,
      out,
    );
    assert.equal((await k.ok(['-n', 'team-a', 'get', 'cm,secret', '-o', 'jsonpath={.items[*].metadata.uid}'], { env })).trim(), uids);
  });
});
