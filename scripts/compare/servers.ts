/**
 * The two servers the differential checker compares, each on its own throw-away etcd and with the
 * same identity files: orch-apiserver in `--api-domain=k8s.io` mode and the reference
 * kube-apiserver. Both serve one CA's certificate, accept the same admin token (user admin in
 * system:masters) and client CA, sign and verify service-account tokens with the same key pair, run
 * RBAC authorization, their default admission plugins and the same service CIDR.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureClusterFiles, type ClusterFiles } from '../cluster-files.js';
import { startEtcd, type EtcdProcess } from '../../test/support/etcd.js';
import { freePort } from '../../test/support/free-ports.js';
import { newTestClient, type TestClient } from '../../test/support/http-client.js';
import { startProcess, type Proc } from '../../test/support/processes.js';

const APISERVER = fileURLToPath(new URL('../../apiserver/cmd/apiserver.js', import.meta.url));
const READY_TIMEOUT_MS = 120_000;
const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const SERVICE_CIDR = '10.0.0.0/24';

export interface ComparedServer {
  name: string;
  client: TestClient;
  /** The server's output so far. */
  output(): string;
}

export interface ServerPair {
  orch: ComparedServer;
  reference: ComparedServer;
  stop(): Promise<void>;
}

/** Flags both servers get, as each spells them. */
function commonFlags(files: ClusterFiles, etcd: string, port: number, certDir: string): string[] {
  return [
    `--etcd-servers=${etcd}`,
    `--secure-port=${port}`,
    '--bind-address=127.0.0.1',
    `--tls-cert-file=${files.certFile}`,
    `--tls-private-key-file=${files.keyFile}`,
    `--cert-dir=${certDir}`,
    `--client-ca-file=${files.caFile}`,
    `--token-auth-file=${files.tokensFile}`,
    `--service-account-issuer=${ISSUER}`,
    `--service-account-key-file=${files.serviceAccountPublicKeyFile}`,
    `--service-account-signing-key-file=${files.serviceAccountKeyFile}`,
    '--authorization-mode=RBAC',
    `--service-cluster-ip-range=${SERVICE_CIDR}`,
    // ValidatingAdmissionPolicy's v1beta1, as Kubernetes 1.28 serves it when asked (orch also serves v1).
    '--runtime-config=admissionregistration.k8s.io/v1beta1=true',
  ];
}

/** Starts both servers and resolves once both answer /readyz; `extraOrchArgs` go to orch only. */
export async function startServers(referenceBinary: string, extraOrchArgs: string[] = []): Promise<ServerPair> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-compare-'));
  const files = ensureClusterFiles(join(dir, 'files'));
  const etcds: EtcdProcess[] = [];
  const procs: Proc[] = [];
  const stop = async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await Promise.all(etcds.map((e) => e.stop()));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    etcds.push(await startEtcd(), await startEtcd());
    const [orchPort, refPort] = [await freePort(), await freePort()];
    const orchProc = startProcess(process.execPath, [
      APISERVER,
      ...commonFlags(files, etcds[0]!.endpoint, orchPort, join(dir, 'orch-certs')),
      '--api-domain=k8s.io',
      `--data-dir=${join(dir, 'orch-data')}`,
      ...extraOrchArgs,
    ]);
    procs.push(orchProc);
    const refProc = startProcess(referenceBinary, [
      ...commonFlags(files, etcds[1]!.endpoint, refPort, join(dir, 'reference-certs')),
      '--advertise-address=127.0.0.1',
      // Beta and off by default in 1.28; orch's policies are always on.
      '--feature-gates=ValidatingAdmissionPolicy=true',
    ]);
    procs.push(refProc);
    const ca = readFileSync(files.caFile, 'utf8');
    const orch = serverOf('orch', orchPort, ca, files.token, orchProc);
    const reference = serverOf('reference', refPort, ca, files.token, refProc);
    await Promise.all([waitReady(orch, orchProc), waitReady(reference, refProc)]);
    return {
      orch,
      reference,
      stop: async () => {
        orch.client.close();
        reference.client.close();
        await stop();
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

function serverOf(name: string, port: number, ca: string, token: string, proc: Proc): ComparedServer {
  return { name, client: newTestClient({ url: `https://127.0.0.1:${port}`, ca, token }), output: proc.output };
}

async function waitReady(server: ComparedServer, proc: Proc): Promise<void> {
  let exited = false;
  void proc.exited.then(() => (exited = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${server.name} exited before it was ready:\n${proc.output().slice(-4000)}`);
    try {
      const res = await server.client.get('/readyz');
      if (res.status === 200) return;
      last = `${res.status} ${res.text}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${server.name} not ready after ${READY_TIMEOUT_MS} ms (last /readyz: ${last}):\n${proc.output().slice(-4000)}`);
}
