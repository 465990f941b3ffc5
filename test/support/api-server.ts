/**
 * An orch-apiserver started in this test process (real HTTPS on a free loopback port, real storage:
 * a SQLite file in a temp dir, or a given etcd), with an admin token and a client for it.
 */
import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseServerOptions } from '../../apiserver/server/options.js';
import { runServer, type RunningServer } from '../../apiserver/server/run-server.js';
import { newTestClient, type TestClient } from './http-client.js';
import { writeAdminKubeconfig } from '../../scripts/cluster-files.js';

export interface TestServer {
  server: RunningServer;
  dataDir: string;
  url: string;
  ca: string;
  token: string;
  /** A client with the admin token. */
  client: TestClient;
  /** A client without credentials (anonymous). */
  anonymous: TestClient;
  /** An admin kubeconfig for kubectl. */
  kubeconfig: string;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  /** etcd client URL; absent = the embedded SQLite store. */
  etcd?: string;
  /** Extra orch-apiserver flags. */
  args?: string[];
  /** Reuse a data dir (restart tests). */
  dataDir?: string;
  /** Unique etcd prefix per server group so suites sharing one etcd do not see each other. */
  etcdPrefix?: string;
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'orch-test-')));
  const token = randomBytes(16).toString('hex');
  const tokens = join(dataDir, 'tokens.csv');
  await writeFile(tokens, `${token},admin,admin,"system:masters"\n`);
  const args = [
    '--secure-port=0',
    '--bind-address=127.0.0.1',
    `--data-dir=${dataDir}`,
    `--token-auth-file=${tokens}`,
    '--v=0',
    ...(opts.etcd
      ? [`--etcd-servers=${opts.etcd}`, `--etcd-prefix=${opts.etcdPrefix ?? `/registry-${randomBytes(4).toString('hex')}`}`]
      : []),
    ...(opts.args ?? []),
  ];
  const server = await runServer(parseServerOptions(args));
  const ca = await readFile(join(dataDir, 'certs', 'ca.crt'), 'utf8');
  const url = `https://127.0.0.1:${server.port}`;
  const client = newTestClient({ url, token, ca });
  const kubeconfig = join(dataDir, 'test.kubeconfig');
  writeAdminKubeconfig(kubeconfig, url, { caPem: ca, token });
  const anonymous = newTestClient({ url, ca });
  // Ready once the system namespaces exist.
  for (let i = 0; i < 200; i++) {
    const r = await client.get('/readyz');
    if (r.status === 200) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    server,
    dataDir,
    url,
    ca,
    token,
    client,
    anonymous,
    kubeconfig,
    async stop() {
      client.close();
      anonymous.close();
      await server.close();
      if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
