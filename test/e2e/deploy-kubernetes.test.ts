/**
 * End to end: deploy/kubernetes (orch's HA topology on a Kubernetes cluster) is accepted by a
 * Kubernetes API server — orch itself in k8s.io mode — with `kubectl apply --dry-run=server -f
 * deploy/kubernetes/`, holds every piece of the topology, and gives the binaries command lines they
 * accept (their own flag tables; etcd's flags from `etcd --help`).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { checkCommandLine } from '../support/deploy-command-lines.js';
import { newKubectl } from '../support/kubectl.js';
import { run } from '../support/processes.js';

const DIR = 'deploy/kubernetes';

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  spec?: Record<string, any>;
}

function manifests(): Manifest[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) => parseAllDocuments(readFileSync(join(DIR, f), 'utf8')).map((d) => d.toJS() as Manifest));
}

describe('deploy/kubernetes', () => {
  let server: TestServer;
  const all = manifests();
  const ids = all.map((m) => `${m.kind}/${m.metadata.name}`);

  before(async () => {
    server = await startTestServer({ process: true, args: ['--api-domain=k8s.io'] });
  });
  after(async () => {
    await server?.stop();
  });

  it('holds the HA topology: etcd StatefulSet, apiserver and proxy Deployments and Services, controller managers, RBAC, PDBs', () => {
    for (const id of [
      'Namespace/orch',
      'StatefulSet/etcd',
      'Service/etcd',
      'Deployment/orch-apiserver',
      'Service/orch-apiserver',
      'Deployment/orch-proxy',
      'Service/orch-proxy',
      'Deployment/orch-controller-manager',
      'Role/orch-operator',
      'RoleBinding/orch-operators',
      'PodDisruptionBudget/etcd',
      'PodDisruptionBudget/orch-apiserver',
      'PodDisruptionBudget/orch-proxy',
      'PodDisruptionBudget/orch-controller-manager',
    ]) {
      assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
    }
    for (const m of all.filter((x) => x.kind !== 'Namespace')) assert.equal(m.metadata.namespace, 'orch', `${m.kind}/${m.metadata.name}`);
  });

  it('kubectl apply --dry-run=server accepts every object and creates none', async () => {
    const k = newKubectl(server.kubeconfig);
    await k.ok(['apply', '-f', join(DIR, '00-namespace.yaml')]);
    const out = await k.ok(['apply', '--dry-run=server', '-f', `${DIR}/`]);
    const lines = out.trim().split('\n');
    assert.equal(lines.length, all.length, out);
    for (const m of all.filter((x) => x.kind !== 'Namespace')) {
      const kind = m.kind.toLowerCase();
      assert.ok(
        lines.some((l) => new RegExp(`^${kind}(\\.[\\w.]+)?/${m.metadata.name} created \\(server dry run\\)$`).test(l)),
        `${kind}/${m.metadata.name} in:\n${out}`,
      );
    }
    assert.equal((await k.ok(['get', 'deployments,statefulsets,poddisruptionbudgets,roles', '-n', 'orch', '-o', 'name'])).trim(), '');
  });

  it('runs every container unprivileged, with command lines its binary accepts', async () => {
    const etcdHelp = (await run('/usr/bin/etcd', ['--help'])).stdout + (await run('/usr/bin/etcd', ['--help'])).stderr;
    for (const m of all.filter((x) => x.kind === 'Deployment' || x.kind === 'StatefulSet')) {
      const pod = m.spec!.template.spec;
      assert.equal(pod.securityContext.runAsNonRoot, true, m.metadata.name);
      assert.equal(pod.automountServiceAccountToken, false, m.metadata.name);
      for (const c of pod.containers) {
        const where = `${m.kind}/${m.metadata.name} container ${c.name}`;
        assert.equal(c.securityContext.allowPrivilegeEscalation, false, where);
        assert.equal(c.securityContext.readOnlyRootFilesystem, true, where);
        assert.deepEqual(c.securityContext.capabilities.drop, ['ALL'], where);
        if (String(c.image).startsWith('orch:')) {
          await checkCommandLine([...(c.command ?? ['orch-apiserver']), ...(c.args ?? [])], where);
        } else {
          assert.equal(c.command[0], '/usr/local/bin/etcd', where);
          for (const flag of c.command.slice(1)) {
            const name = /^--([\w-]+)=/.exec(flag)?.[1];
            assert.ok(name && etcdHelp.includes(`--${name} `), `${where}: etcd has no ${flag}`);
          }
        }
      }
    }
  });
});
