/**
 * `npm run bench:aggregation`: the latency the aggregation layer adds. Starts orch-apiserver (a
 * process) and the test extension server behind a remote APIService, then times sequential GETs of
 * `/apis/metrics.k8s.io/v1beta1/nodes`: sent to the extension server directly (with the front-proxy
 * client certificate, as orch sends them) and through orch (bearer token, authentication,
 * authorization, proxy). Prints p50/p90/p99 of both and the difference.
 *
 *   npm run bench:aggregation -- [--count 1000]
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { startTestServer } from '../test/support/api-server.js';
import { eventually } from '../test/support/eventually.js';
import { registration, startExtensionServer } from '../test/support/extension-server.js';
import { percentile, round } from './bench/stats.js';

const PATH = '/apis/metrics.k8s.io/v1beta1/nodes';

function get(agent: Agent, url: string, headers: Record<string, string>): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.once('end', () =>
        res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`${res.statusCode}`)),
      );
    });
    req.once('error', reject);
    req.end();
  });
}

async function timed(count: number, one: () => Promise<number>): Promise<number[]> {
  for (let i = 0; i < 50; i++) await one();
  const samples: number[] = [];
  for (let i = 0; i < count; i++) samples.push(await one());
  return samples;
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--count');
  const count = i > 0 ? Number(process.argv[i + 1]) : 1000;
  const s = await startTestServer({ process: true });
  const certs = join(s.dataDir, 'certs');
  const ext = await startExtensionServer({
    frontProxyCA: readFileSync(join(certs, 'front-proxy-ca.crt'), 'utf8'),
    serviceName: 'metrics-server',
    namespace: 'default',
  });
  try {
    const reg = registration('default', 'metrics-server', ext.port, ext.ca);
    await s.client.post('/api/v1/namespaces/default/services', reg.service);
    await s.client.post('/apis/apiregistration.orch.io/v1/apiservices', reg.apiService('apiregistration.orch.io/v1'));
    await eventually('available', async () => {
      const r = await s.client.get('/apis/apiregistration.orch.io/v1/apiservices/v1beta1.metrics.k8s.io');
      return r.body.status?.conditions?.[0]?.status === 'True';
    });
    const direct = new Agent({
      keepAlive: true,
      ca: ext.ca,
      cert: readFileSync(join(certs, 'front-proxy-client.crt')),
      key: readFileSync(join(certs, 'front-proxy-client.key')),
      servername: 'metrics-server.default.svc',
    });
    const viaOrch = new Agent({ keepAlive: true, ca: s.ca });
    const identity = { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' };
    const d = await timed(count, () => get(direct, `https://127.0.0.1:${ext.port}${PATH}`, identity));
    const o = await timed(count, () => get(viaOrch, `${s.url}${PATH}`, { Authorization: `Bearer ${s.token}` }));
    const summary = (xs: number[]) => ({ p50: round(percentile(xs, 50)), p90: round(percentile(xs, 90)), p99: round(percentile(xs, 99)) });
    const [sd, so] = [summary(d), summary(o)];
    console.log(
      JSON.stringify({ count, directMs: sd, throughOrchMs: so, addedMs: { p50: round(so.p50 - sd.p50), p99: round(so.p99 - sd.p99) } }),
    );
    direct.destroy();
    viaOrch.destroy();
  } finally {
    await s.stop();
    await ext.close();
  }
}

await main();
