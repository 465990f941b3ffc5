/**
 * End to end: the official Kubernetes Python client (Debian's python3-kubernetes) against `npm start`'s
 * all-in-one, in the default API domain and in --api-domain=k8s.io. The workflow itself is
 * test/e2e/python/client_workflow.py: typed and dynamic clients list, create, page with limit/_continue
 * and watch ConfigMaps; it prints `ok <check>` per check and `done` at the end.
 *
 * python3 on PATH may be a pyenv interpreter that does not see Debian's dist-packages, so the test takes
 * the first of /usr/bin/python3 and python3 that imports `kubernetes`. Without one it is skipped, except
 * in CI (.ci/run installs the package), where it fails.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-ports.js';
import { run, startProcess, type Proc } from '../support/processes.js';
import { seedAllInOneDataDir } from '../support/test-pki.js';

const ALL_IN_ONE = 'dist/scripts/all-in-one.js';
const WORKFLOW = 'test/e2e/python/client_workflow.py';
const CHECKS = [
  'version',
  'list-namespaces',
  'create-namespace',
  'create-configmaps',
  'paging',
  'paging-remaining',
  'typed-watch',
  'typed-watch-initial',
  'dynamic-discovery',
  'dynamic-get',
  'dynamic-paging',
  'dynamic-watch',
  'errors',
  'delete-namespace',
];

async function findPython(): Promise<string | undefined> {
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    const r = await run(candidate, ['-c', 'import kubernetes']);
    if (r.code === 0) return candidate;
  }
  return undefined;
}

const python = await findPython();
if (!python && process.env.CI) throw new Error('no python3 imports kubernetes: apt-get install python3-kubernetes');

for (const domain of ['orch.io', 'k8s.io']) {
  describe(`the Kubernetes Python client against the all-in-one (${domain})`, {
    skip: python ? false : 'python3-kubernetes is not installed',
  }, () => {
    let dir: string;
    let aio: Proc;
    let kubeconfig: string;

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'orch-e2e-py-'));
      const port = await freePort();
      const args = [ALL_IN_ONE, '--data-dir', join(dir, 'data'), '--secure-port', String(port)];
      if (domain !== 'orch.io') args.push(`--api-domain=${domain}`);
      seedAllInOneDataDir(join(dir, 'data'), domain);
      aio = startProcess(process.execPath, args);
      await aio.waitFor(/orch is ready: kubectl --kubeconfig (\S+) get ns/, 60_000);
      kubeconfig = join(dir, 'data', 'admin.kubeconfig');
    });

    after(async () => {
      await aio?.stop('SIGINT');
      await rm(dir, { recursive: true, force: true });
    });

    it('lists, creates, pages and watches ConfigMaps with the typed and the dynamic client', async () => {
      const r = await run(python!, [WORKFLOW, kubeconfig, 'py-client'], { timeoutMs: 120_000 });
      const passed = [...r.stdout.matchAll(/^ok (\S+)/gm)].map((m) => m[1]);
      assert.equal(r.code, 0, `${WORKFLOW} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
      assert.deepEqual(passed, CHECKS, r.stdout);
      assert.match(r.stdout, /^done$/m);
      assert.match(r.stdout, /^ok paging 3 pages 7 items$/m);
      assert.match(r.stdout, /^ok typed-watch ADDED MODIFIED DELETED$/m);
      assert.match(r.stdout, /^ok dynamic-watch ADDED MODIFIED DELETED$/m);
      const namespaces = /^ok list-namespaces (\S+)$/m.exec(r.stdout)?.[1].split(',') ?? [];
      assert.ok(namespaces.includes(domain === 'k8s.io' ? 'kube-system' : 'orch-system'), r.stdout);
    });
  });
}
