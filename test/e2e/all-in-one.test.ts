/**
 * End to end: `npm start`'s all-in-one (embedded store) driven by the real kubectl, then stopped with
 * Ctrl-C and started again on the same data dir.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile, readFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:https';
import { X509Certificate } from 'node:crypto';
import { freePort } from '../support/free-ports.js';
import { run, startProcess, type Proc } from '../support/processes.js';
import { newKubectl } from '../support/kubectl.js';
import { seedAllInOneDataDir } from '../support/test-pki.js';

const ALL_IN_ONE = 'dist/scripts/all-in-one.js';

const MANIFEST = `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
data:
  a: "1"
  b: "2"
---
apiVersion: v1
kind: Secret
metadata:
  name: app-secret
stringData:
  password: hunter2
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: builder
`;

describe('all-in-one with kubectl', () => {
  let dir: string;
  let port: number;
  let aio: Proc;
  let kubeconfig: string;
  let k: ReturnType<typeof newKubectl>;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-e2e-'));
    port = await freePort();
    // The run's cluster files (all-in-one-start-stop.test.ts sees a first start make them).
    seedAllInOneDataDir(join(dir, 'data'));
    aio = startProcess(process.execPath, [ALL_IN_ONE, '--data-dir', join(dir, 'data'), '--secure-port', String(port)]);
    await aio.waitFor(/orch is ready: kubectl --kubeconfig (\S+) get ns/, 60_000);
    kubeconfig = join(dir, 'data', 'admin.kubeconfig');
    k = newKubectl(kubeconfig);
  });

  after(async () => {
    await aio?.stop('SIGINT');
    await rm(dir, { recursive: true, force: true });
  });

  it('writes an admin kubeconfig with the server, CA data and a client certificate of admin in system:masters', async () => {
    const text = await readFile(kubeconfig, 'utf8');
    assert.match(text, new RegExp(`server: https://127.0.0.1:${port}`));
    assert.match(text, /certificate-authority-data: \S+/);
    const cert = new X509Certificate(Buffer.from(/client-certificate-data: (\S+)/.exec(text)![1], 'base64'));
    assert.equal(cert.subject, 'O=system:masters\nCN=admin');
    assert.ok(cert.verify(new X509Certificate(await readFile(join(dir, 'data', 'certs', 'ca.crt'))).publicKey));
    assert.doesNotMatch(text, /token:/);
  });

  it('refuses requests without credentials (anonymous, forbidden by RBAC: 403), answers the admin, and knows who is who', async () => {
    const curl = await run('curl', ['-sk', '-o', '/dev/null', '-w', '%{http_code}', `https://127.0.0.1:${port}/api/v1/secrets`]);
    assert.equal(curl.stdout, '403');
    const post = await run('curl', [
      '-sk',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-X',
      'POST',
      '-H',
      'Content-Type: application/json',
      '-d',
      '{"metadata":{"name":"x"}}',
      `https://127.0.0.1:${port}/api/v1/namespaces/default/configmaps`,
    ]);
    assert.equal(post.stdout, '403');
    await k.ok(['get', 'secrets', '-A']); // the admin's client certificate works
    const cm = new X509Certificate(
      Buffer.from(
        /client-certificate-data: (\S+)/.exec(await readFile(join(dir, 'data', 'controller-manager.kubeconfig'), 'utf8'))![1],
        'base64',
      ),
    );
    assert.equal(cm.subject, 'CN=system:kube-controller-manager');
  });

  it('issues service-account tokens (TokenRequest) that authenticate as the account', async () => {
    await k.ok(['create', 'serviceaccount', 'token-user']);
    const certs = join(dir, 'data', 'certs');
    const minted = await run('curl', [
      '-sk',
      '--cert',
      join(certs, 'admin.crt'),
      '--key',
      join(certs, 'admin.key'),
      '-X',
      'POST',
      '-H',
      'Content-Type: application/json',
      '-d',
      '{"apiVersion":"authentication.orch.io/v1","kind":"TokenRequest","spec":{}}',
      `https://127.0.0.1:${port}/api/v1/namespaces/default/serviceaccounts/token-user/token`,
    ]);
    const token = JSON.parse(minted.stdout).status.token;
    const curl = await run('curl', [
      '-sk',
      '-H',
      `Authorization: Bearer ${token}`,
      '-X',
      'POST',
      '-H',
      'Content-Type: application/json',
      '-d',
      '{"apiVersion":"authentication.orch.io/v1","kind":"SelfSubjectReview"}',
      `https://127.0.0.1:${port}/apis/authentication.orch.io/v1/selfsubjectreviews`,
    ]);
    assert.equal(JSON.parse(curl.stdout).status.userInfo.username, 'system:serviceaccount:default:token-user');
  });

  it('kubectl get ns lists the system namespaces', async () => {
    const out = await k.ok(['get', 'ns', '-o', 'name']);
    assert.deepEqual(out.trim().split('\n').sort(), [
      'namespace/default',
      'namespace/orch-node-lease',
      'namespace/orch-public',
      'namespace/orch-system',
    ]);
  });

  it('kubectl api-resources and version read discovery', async () => {
    const out = await k.ok(['api-resources', '--no-headers']);
    assert.match(out, /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
    assert.match(out, /^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
    const v = await k.ok(['version', '-o', 'json']);
    assert.equal(JSON.parse(v).serverVersion.minor, '28');
  });

  it('kubectl create -f, then apply twice (client-side) with a removed field', async () => {
    const created = await k.ok(['create', '-f', '-'], { input: MANIFEST });
    assert.match(created, /configmap\/app-config created/);
    assert.match(created, /secret\/app-secret created/);
    assert.match(created, /serviceaccount\/builder created/);
    await k.ok(['apply', '-f', '-'], { input: MANIFEST });
    const applied = await k.ok(['apply', '-f', '-'], { input: MANIFEST.replace('  b: "2"\n', '  c: "3"\n') });
    assert.match(applied, /configmap\/app-config configured/);
    const data = JSON.parse(await k.ok(['get', 'cm', 'app-config', '-o', 'jsonpath={.data}']));
    assert.deepEqual(data, { a: '1', c: '3' });
    const secret = JSON.parse(await k.ok(['get', 'secret', 'app-secret', '-o', 'json']));
    assert.equal(Buffer.from(secret.data.password, 'base64').toString(), 'hunter2');
    assert.equal(secret.stringData, undefined);
  });

  it('kubectl label, annotate and edit', async () => {
    await k.ok(['label', 'cm', 'app-config', 'tier=web']);
    await k.ok(['annotate', 'cm', 'app-config', 'note=hello']);
    const editor = join(dir, 'editor.sh');
    await writeFile(editor, `#!/bin/sh\nsed -i 's/^  a: "1"/  a: "edited"/' "$1"\n`);
    await chmod(editor, 0o755);
    const edited = await k.ok(['edit', 'cm', 'app-config'], { env: { EDITOR: editor, KUBE_EDITOR: editor } });
    assert.match(edited, /configmap\/app-config edited/);
    const cm = JSON.parse(await k.ok(['get', 'cm', 'app-config', '-o', 'json']));
    assert.equal(cm.metadata.labels.tier, 'web');
    assert.equal(cm.metadata.annotations.note, 'hello');
    assert.equal(cm.data.a, 'edited');
  });

  it('kubectl get -w streams changes', async () => {
    const w = startProcess('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, 'get', 'cm', '-w', '--output-watch-events']);
    await w.waitFor(/ADDED\s+app-config\s/, 20_000);
    await k.ok(['create', 'cm', 'watched', '--from-literal=x=y']);
    await w.waitFor(/ADDED\s+watched\s/);
    await k.ok(['delete', 'cm', 'watched']);
    await w.waitFor(/DELETED\s+watched\s/);
    await w.stop('SIGKILL');
  });

  it('kubectl delete; a deleted namespace is Terminating and refuses new content', async () => {
    const out = await k.ok(['delete', '-f', '-'], { input: MANIFEST });
    assert.match(out, /configmap "app-config" deleted/);
    const r = await k.run(['get', 'cm', 'app-config']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /NotFound.*configmaps "app-config" not found/);
    await k.ok(['create', 'ns', 'doomed']);
    await k.ok(['delete', 'ns', 'doomed', '--wait=false']);
    assert.equal(await k.ok(['get', 'ns', 'doomed', '-o', 'jsonpath={.status.phase}']), 'Terminating');
    const refused = await k.run(['create', 'cm', 'late', '-n', 'doomed']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /forbidden: unable to create new content in namespace doomed because it is being terminated/);
    const system = await k.run(['delete', 'ns', 'orch-system']);
    assert.match(system.stderr, /this namespace may not be deleted/);
  });

  it('runs Node,RBAC: anonymous callers reach only /healthz, /livez, /readyz and /version', async () => {
    const ca = await readFile(join(dir, 'data', 'certs', 'ca.crt'), 'utf8');
    const anonymous = (path: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path, ca }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        })
          .on('error', reject)
          .end();
      });
    for (const path of ['/healthz', '/livez', '/readyz', '/version']) assert.equal((await anonymous(path)).status, 200, path);
    for (const path of ['/api', '/apis', '/metrics', '/api/v1/namespaces', '/api/v1/namespaces/default/secrets', '/openapi/v2']) {
      const r = await anonymous(path);
      assert.equal(r.status, 403, path);
      assert.match(r.text, /User \\"system:anonymous\\" cannot/);
    }
  });

  it('the controllers work with least privilege, each as its own identity', async () => {
    // The ServiceAccount controller and the root CA publisher fill a new namespace; the namespace
    // controller finishes its deletion; the aggregation controller fills `view`.
    await k.ok(['create', 'ns', 'least']);
    const until = async (what: string, probe: () => Promise<boolean>) => {
      for (let i = 0; i < 300; i++) {
        if (await probe()) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.fail(`timed out waiting for ${what}`);
    };
    await until('the default ServiceAccount', async () => (await k.run(['get', 'sa', 'default', '-n', 'least'])).code === 0);
    await until('the root CA ConfigMap', async () => (await k.run(['get', 'cm', 'orch-root-ca.crt', '-n', 'least'])).code === 0);
    await until('view aggregated', async () =>
      (await k.ok(['get', 'clusterrole', 'view', '-o', 'jsonpath={.rules[*].resources}'])).includes('configmaps'),
    );
    // The deployment and replicaset controllers, each as its own ServiceAccount, make the ReplicaSet and Pods.
    await k.ok(['create', 'deployment', 'web', '--image=registry.example/web:1', '--replicas=2', '-n', 'least']);
    await until('the ReplicaSet and its 2 Pods', async () => {
      const pods = await k.run(['get', 'pods', '-n', 'least', '-l', 'app=web', '-o', 'name']);
      const rs = await k.run(['get', 'rs', '-n', 'least', '-l', 'app=web', '-o', 'name']);
      return rs.stdout.trim().split('\n').filter(Boolean).length === 1 && pods.stdout.trim().split('\n').filter(Boolean).length === 2;
    });
    await k.ok(['delete', 'ns', 'least', '--wait=false']);
    await until('the namespace gone', async () => (await k.run(['get', 'ns', 'least'])).code !== 0);
    // The manager itself may list and watch, not write what its controllers write (asked by SubjectAccessReview).
    const allowed = async (user: string, groups: string[], resourceAttributes: Record<string, string>) => {
      const sar = { apiVersion: 'authorization.orch.io/v1', kind: 'SubjectAccessReview', spec: { user, groups, resourceAttributes } };
      // --raw: kubectl's schema check of a create-only kind (no PATCH in OpenAPI) asks for CRDs, which orch does not serve.
      const out = await k.ok(['create', '--raw', '/apis/authorization.orch.io/v1/subjectaccessreviews', '-f', '-'], {
        input: JSON.stringify(sar),
      });
      return String(JSON.parse(out).status.allowed);
    };
    const manager = 'system:kube-controller-manager';
    assert.equal(await allowed(manager, [], { verb: 'list', resource: 'secrets' }), 'true');
    assert.equal(await allowed(manager, [], { verb: 'create', resource: 'configmaps', namespace: 'default' }), 'false');
    assert.equal(await allowed(manager, [], { verb: 'delete', resource: 'namespaces', name: 'default' }), 'false');
    const gc = 'system:serviceaccount:orch-system:generic-garbage-collector';
    assert.equal(await allowed(gc, [], { verb: 'delete', group: 'apps', resource: 'deployments', namespace: 'default' }), 'true');
    assert.equal(await allowed(gc, [], { verb: 'create', resource: 'pods', namespace: 'default' }), 'false');
    // Their kubeconfigs carry those identities (client certificates from the cluster CA).
    const subjectOf = async (file: string) =>
      new X509Certificate(Buffer.from(/client-certificate-data: (\S+)/.exec(await readFile(join(dir, 'data', file), 'utf8'))![1], 'base64'))
        .subject;
    assert.equal(await subjectOf('controller-manager.kubeconfig'), 'CN=system:kube-controller-manager');
    assert.equal(
      await subjectOf(join('controllers', 'garbage-collector-controller.kubeconfig')),
      `O=system:serviceaccounts\nO=system:serviceaccounts:orch-system\nCN=${gc}`,
    );
  });

  it('stops every child on Ctrl-C and comes back with the same state and client certificates', async () => {
    await k.ok(['create', 'cm', 'survivor', '--from-literal=k=v']);
    const certs = ['admin.crt', 'controller-manager.crt', join('controllers', 'namespace-controller.crt')].map((f) =>
      join(dir, 'data', 'certs', f),
    );
    const before = await Promise.all(certs.map((f) => readFile(f, 'utf8')));
    const code = await aio.stop('SIGINT');
    assert.equal(code, 0, aio.output());
    const gone = await k.run(['get', 'ns'], { env: {} });
    assert.notEqual(gone.code, 0, 'the API server child must be gone');
    aio = startProcess(process.execPath, [ALL_IN_ONE, '--data-dir', join(dir, 'data'), '--secure-port', String(port)]);
    await aio.waitFor(/orch is ready/, 60_000);
    assert.equal(await k.ok(['get', 'cm', 'survivor', '-o', 'jsonpath={.data.k}']), 'v');
    assert.deepEqual(await Promise.all(certs.map((f) => readFile(f, 'utf8'))), before);
  });
});
