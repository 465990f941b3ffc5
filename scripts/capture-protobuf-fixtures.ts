/**
 * Captures the protobuf fixtures of test/fixtures/protobuf/ from the reference kube-apiserver 1.28
 * and stock kubectl (client-go), so orch is tested against bytes Kubernetes' own Go code wrote:
 *
 *   npm run build && node dist/scripts/capture-protobuf-fixtures.js <path/to/kube-apiserver>
 *
 * It starts a throw-away etcd and the reference; then (kubectl 1.32: see KUBECTL)
 * - `kubectl -v=10 create role|rolebinding|clusterrolebinding` sends protobuf request bodies, which client-go logs as a hex dump:
 *   each is kept as `request-<name>.pb`, with the object the reference stored from it (`.json`);
 * - objects created as JSON are read back with `Accept: application/vnd.kubernetes.protobuf`
 *   (`object-<name>.pb`) and as JSON (`.json`), a list, a Status (a 404) and one watch frame too.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureClusterFiles, writeAdminKubeconfig } from './cluster-files.js';
import { startEtcd } from '../test/support/etcd.js';
import { freePort } from '../test/support/free-ports.js';
import { newTestClient, type TestClient } from '../test/support/http-client.js';
import { run, startProcess } from '../test/support/processes.js';
import { watchProtobuf } from '../test/support/protobuf-watch.js';

const OUT = fileURLToPath(new URL('../../test/fixtures/protobuf/', import.meta.url));
const PB = 'application/vnd.kubernetes.protobuf';
/**
 * A kubectl whose typed clients send protobuf (1.32; kubectl 1.28 sends these as JSON). The wire form
 * of the messages is the same in both releases. Override with KUBECTL.
 */
const KUBECTL = process.env.KUBECTL ?? '/usr/lib/google-cloud-sdk/bin/kubectl.1.32';

/** kubectl commands whose typed clients send protobuf bodies, and where the created object is read. */
const KUBECTL_REQUESTS: { name: string; args: string[]; path: string }[] = [
  {
    name: 'clusterrolebinding',
    args: ['create', 'clusterrolebinding', 'fixture', '--clusterrole=view', '--user=alice', '--group=devs'],
    path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/fixture',
  },
  {
    name: 'role',
    args: ['create', 'role', 'fixture', '--verb=get', '--resource=configmaps'],
    path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/fixture',
  },
  {
    name: 'rolebinding',
    args: ['create', 'rolebinding', 'fixture', '--role=fixture', '--serviceaccount=default:builder'],
    path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/fixture',
  },
];

/** Objects created as JSON and read back in protobuf: one per special JSON form (times, quantities, int-or-string, raw). */
const OBJECTS: { name: string; path: string; body: Record<string, unknown> }[] = [
  {
    name: 'pod',
    path: '/api/v1/namespaces/default/pods',
    body: {
      metadata: { name: 'fixture', labels: { app: 'fixture' }, annotations: { note: 'x' } },
      spec: {
        automountServiceAccountToken: false,
        containers: [
          {
            name: 'c',
            image: 'nginx',
            ports: [{ name: 'http', containerPort: 80 }],
            resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '0.1' } },
            livenessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 5 },
            readinessProbe: { tcpSocket: { port: 80 } },
            securityContext: { runAsUser: 0, allowPrivilegeEscalation: false },
          },
        ],
        tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }],
      },
    },
  },
  {
    name: 'service',
    path: '/api/v1/namespaces/default/services',
    body: { metadata: { name: 'fixture' }, spec: { selector: { app: 'fixture' }, ports: [{ port: 80, targetPort: 'http' }] } },
  },
  {
    name: 'configmap',
    path: '/api/v1/namespaces/default/configmaps',
    body: { metadata: { name: 'fixture' }, data: { a: '1' }, binaryData: { b: 'AAEC' } },
  },
  {
    name: 'lease',
    path: '/apis/coordination.k8s.io/v1/namespaces/default/leases',
    body: {
      metadata: { name: 'fixture' },
      spec: {
        holderIdentity: 'me',
        leaseDurationSeconds: 15,
        acquireTime: '2024-01-02T03:04:05.123456Z',
        renewTime: '2024-01-02T03:04:06.000001Z',
      },
    },
  },
  {
    name: 'controllerrevision',
    path: '/apis/apps/v1/namespaces/default/controllerrevisions',
    body: { metadata: { name: 'fixture' }, revision: 3, data: { spec: { template: { metadata: { labels: { a: 'b' } } } } } },
  },
];

/** The bytes of client-go's "Request Body" hex dump (`hexdump -C` lines) in a -v=10 log. */
function requestBodyOf(log: string): Buffer {
  const lines = log.split('\n');
  const start = lines.findIndex((l) => l.includes('Request Body'));
  if (start < 0) throw new Error(`no Request Body in kubectl's log:\n${log.slice(-3000)}`);
  const bytes: number[] = [];
  for (const line of lines.slice(start + 1)) {
    const m = /^\s*[0-9a-f]{8} {2}(.{1,49})/.exec(line);
    if (!m) break;
    bytes.push(...(m[1].match(/\b[0-9a-f]{2}\b/g) ?? []).map((h) => Number.parseInt(h, 16)));
  }
  return Buffer.from(bytes);
}

async function waitReady(c: TestClient): Promise<void> {
  for (let i = 0; i < 480; i++) {
    try {
      if ((await c.get('/readyz')).status === 200) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the reference kube-apiserver did not become ready');
}

async function main(binary: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-proto-fixtures-'));
  const files = ensureClusterFiles(join(dir, 'files'));
  const etcd = await startEtcd();
  const port = await freePort();
  const server = startProcess(binary, [
    `--etcd-servers=${etcd.endpoint}`,
    `--secure-port=${port}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--tls-cert-file=${files.certFile}`,
    `--tls-private-key-file=${files.keyFile}`,
    `--cert-dir=${join(dir, 'certs')}`,
    `--token-auth-file=${files.tokensFile}`,
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${files.serviceAccountPublicKeyFile}`,
    `--service-account-signing-key-file=${files.serviceAccountKeyFile}`,
    '--authorization-mode=RBAC',
    '--service-cluster-ip-range=10.0.0.0/24',
    '--disable-admission-plugins=ServiceAccount',
  ]);
  const url = `https://127.0.0.1:${port}`;
  const c = newTestClient({ url, ca: files.caPem, token: files.token });
  try {
    await waitReady(c);
    mkdirSync(OUT, { recursive: true });
    const kubeconfig = join(dir, 'admin.kubeconfig');
    writeAdminKubeconfig(kubeconfig, url, files);
    const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
    for (const r of KUBECTL_REQUESTS) {
      const out = await run(KUBECTL, ['--kubeconfig', kubeconfig, '-v=10', ...r.args]);
      if (out.code !== 0) throw new Error(`kubectl ${r.args.join(' ')}: ${out.stderr.slice(-2000)}`);
      const body = requestBodyOf(out.stderr);
      if (!body.subarray(0, 4).equals(Buffer.from('k8s\0', 'binary'))) {
        console.warn(`kubectl ${r.args.join(' ')} sent no protobuf: skipped`);
        continue;
      }
      writeFileSync(join(OUT, `request-${r.name}.pb`), body);
      writeFileSync(join(OUT, `request-${r.name}.json`), json((await c.get(r.path)).body));
    }
    const rv = (await c.get('/api/v1/namespaces/default/configmaps')).body.metadata.resourceVersion;
    const watch = await watchProtobuf(c, `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}`);
    for (const o of OBJECTS) {
      const created = await c.post(o.path, o.body);
      if (created.status !== 201) throw new Error(`${o.name}: ${created.status} ${created.text}`);
      const path = `${o.path}/${created.body.metadata.name}`;
      writeFileSync(join(OUT, `object-${o.name}.pb`), (await c.request('GET', path, { headers: { Accept: PB } })).bytes);
      writeFileSync(join(OUT, `object-${o.name}.json`), json((await c.get(path)).body));
    }
    writeFileSync(join(OUT, 'watch-configmap-added.frame'), await watch.next());
    watch.close();
    const list = '/api/v1/namespaces/default/configmaps?labelSelector=fixture%21%3Dnone';
    writeFileSync(join(OUT, 'list-configmaps.pb'), (await c.request('GET', list, { headers: { Accept: PB } })).bytes);
    writeFileSync(join(OUT, 'list-configmaps.json'), json((await c.get(list)).body));
    const missing = '/api/v1/namespaces/default/configmaps/missing';
    writeFileSync(join(OUT, 'status-not-found.pb'), (await c.request('GET', missing, { headers: { Accept: PB } })).bytes);
    writeFileSync(join(OUT, 'status-not-found.json'), json((await c.get(missing)).body));
    console.log(`wrote fixtures to ${OUT}`);
  } finally {
    c.close();
    await server.stop();
    await etcd.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

const binary = process.argv[2];
if (!binary) throw new Error('usage: capture-protobuf-fixtures.js <path/to/kube-apiserver>');
await main(binary);
