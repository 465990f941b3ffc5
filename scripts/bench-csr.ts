/**
 * `npm run bench:csr`: how fast certificates are issued. Starts orch-apiserver and
 * orch-controller-manager (csrsigning, the cluster CA) as processes, then measures
 *  - latency: one CSR at a time, from the create request to the certificate seen on a watch
 *    (the test approves through /approval right after creating it), p50 and p99 over --count;
 *  - throughput: --burst CSRs created and approved by 16 callers at once, certificates per second
 *    until the last is issued;
 *  - signing alone: certificates the CA signs per second in this process (no API).
 *
 *   npm run bench:csr -- [--count 100] [--burst 500]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCertificateRequestPem } from '../apiserver/api/certificates/pkcs10.js';
import { CertificateAuthority } from '../controllers/csrsigning/certificate-authority.js';
import { newTestClient, type TestClient } from '../test/support/http-client.js';
import { b64, newCsrPem } from '../test/support/csr-fixture.js';
import { loadKubeconfig } from './bench/kubeconfig.js';
import { startLocalApiServer } from './bench/local-cluster.js';
import { percentile, round } from './bench/stats.js';

const CONTROLLER_MANAGER = fileURLToPath(new URL('../controllers/cmd/controller-manager.js', import.meta.url));
const CSRS = '/apis/certificates.orch.io/v1/certificatesigningrequests';
const SIGNER = 'orch.io/orch-apiserver-client';

function parseFlags(argv: string[]): { count: number; burst: number } {
  const flags = { count: 100, burst: 500 };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split(/=(.*)/s, 2);
    const value = Number(inline ?? argv[++i]);
    if (name === '--count' && value >= 10) flags.count = value;
    else if (name === '--burst' && value >= 10) flags.burst = value;
    else throw new Error(`unknown flag or bad value: ${argv[i]} (flags: --count N>=10, --burst N>=10)`);
  }
  return flags;
}

/** Resolves each name's promise when a watch event shows its certificate. */
async function watchIssued(client: TestClient): Promise<{ issued(name: string): Promise<number>; close(): void }> {
  const waiters = new Map<string, (t: number) => void>();
  const seen = new Map<string, number>();
  const stream = await client.watch(`${CSRS}?watch=1`);
  let open = true;
  void (async () => {
    while (open) {
      const ev = await stream.next(60_000).catch(() => undefined);
      if (!ev) continue;
      const name = ev.object?.metadata?.name as string;
      if (!ev.object?.status?.certificate || seen.has(name)) continue;
      const t = performance.now();
      seen.set(name, t);
      waiters.get(name)?.(t);
    }
  })();
  return {
    issued: (name) => (seen.has(name) ? Promise.resolve(seen.get(name)!) : new Promise((resolve) => waiters.set(name, resolve))),
    close: () => {
      open = false;
      stream.close();
    },
  };
}

async function createAndApprove(client: TestClient, name: string, request: string): Promise<void> {
  const created = await client.post(CSRS, {
    metadata: { name },
    spec: { request: b64(request), signerName: SIGNER, usages: ['client auth'] },
  });
  if (created.status !== 201) throw new Error(`create ${name}: ${created.status} ${created.text.slice(0, 200)}`);
  const csr = created.body;
  csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Bench', message: 'approved by bench:csr' }] };
  const approved = await client.put(`${CSRS}/${name}/approval`, csr);
  if (approved.status !== 200) throw new Error(`approve ${name}: ${approved.status} ${approved.text.slice(0, 200)}`);
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  const requests = Array.from({ length: flags.count + flags.burst }, (_, i) => newCsrPem({ cn: `bench-${i}`, orgs: ['bench'] }));
  const server = await startLocalApiServer({});
  const certs = join(dirname(server.kubeconfig), 'certs');
  const manager = spawn(
    process.execPath,
    [
      CONTROLLER_MANAGER,
      `--kubeconfig=${server.kubeconfig}`,
      '--secure-port=0',
      '--bind-address=127.0.0.1',
      '--leader-elect=false',
      '--controllers=csrsigning',
      `--cluster-signing-cert-file=${join(certs, 'ca.crt')}`,
      `--cluster-signing-key-file=${join(certs, 'ca.key')}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const target = loadKubeconfig(server.kubeconfig);
  const client = newTestClient({ url: target.server, token: target.token, ca: target.ca?.toString() ?? '' });
  const watch = await watchIssued(client);
  try {
    // The controller manager is up once a first request is issued.
    await createAndApprove(client, 'warm-up', newCsrPem({ cn: 'warm-up' }));
    await watch.issued('warm-up');
    // Latency: one at a time.
    const latencies: number[] = [];
    for (let i = 0; i < flags.count; i++) {
      const t0 = performance.now();
      await createAndApprove(client, `latency-${i}`, requests[i]);
      latencies.push((await watch.issued(`latency-${i}`)) - t0);
    }
    // Throughput: a burst from 16 callers.
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = next++; i < flags.burst; i = next++) await createAndApprove(client, `burst-${i}`, requests[flags.count + i]);
      }),
    );
    const submittedSeconds = (performance.now() - t0) / 1000;
    const last = Math.max(...(await Promise.all(Array.from({ length: flags.burst }, (_, i) => watch.issued(`burst-${i}`)))));
    const burstSeconds = (last - t0) / 1000;
    // Signing alone.
    const ca = new CertificateAuthority(readFileSync(join(certs, 'ca.crt'), 'utf8'), readFileSync(join(certs, 'ca.key'), 'utf8'));
    const parsed = requests.slice(0, 200).map((r) => parseCertificateRequestPem(r));
    const s0 = performance.now();
    for (const req of parsed)
      ca.sign(req, { ttlMs: 86_400_000, usages: ['client auth'], backdateMs: 300_000, shortMs: 28_800_000, now: new Date() });
    const signSeconds = (performance.now() - s0) / 1000;
    const results = {
      'csr-create-to-issued': { count: flags.count, p50Ms: round(percentile(latencies, 50)), p99Ms: round(percentile(latencies, 99)) },
      'csr-burst-throughput': {
        count: flags.burst,
        seconds: round(burstSeconds),
        certificatesPerSecond: round(flags.burst / burstSeconds),
        // When the last create + approval was answered; the rest is the controller catching up.
        submittedSeconds: round(submittedSeconds),
      },
      'ca-sign-in-process': {
        count: parsed.length,
        certificatesPerSecond: round(parsed.length / signSeconds),
        caKey: ca.privateKey.asymmetricKeyType,
      },
    };
    for (const [name, r] of Object.entries(results)) process.stdout.write(`${JSON.stringify({ scenario: name, ...r })}\n`);
  } finally {
    watch.close();
    client.close();
    manager.kill('SIGTERM');
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`bench:csr: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
