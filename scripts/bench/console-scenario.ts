/**
 * The web console's cost (issue 29), self-started on the embedded store:
 * - no browser open: two orch-apiservers side by side, one with --console and one with
 *   --console=false; GETs of one ConfigMap, then creates of ~1 KiB ConfigMaps, sent to both
 *   interleaved request by request (so machine load falls alike on both), each after a warm-up of
 *   both; in two rounds of fresh servers, started in one order and then the other. The figures: the mean and the median latency with the console over the one without
 *   (costVsOff, p50VsOff; target: nothing measurable, the median within 5%: on a shared machine
 *   the means swing with a few slow tails, ±12% between runs of the same build).
 * - an open overview at idle: one server with the console and nothing else talking to it; its CPU
 *   (percent of one core) over --console-idle-seconds with no browser, then over as long again with
 *   headless Chromium (/usr/bin/chromium, playwright-core) showing the overview signed in as the
 *   admin, after the page has settled; and the requests per second the page makes (from the
 *   server's own apiserver_request_total). The difference is what an open overview costs the
 *   server (target ≤ 1% of one core).
 * - what one /metrics scrape (the overview's sample) costs that server: its CPU over
 *   SCRAPES scrapes in a row, per scrape (cpuMsPerScrape), measured between the two idle windows;
 *   most of it was counting every resource in the store (apiserver_storage_objects) before those
 *   counts came from the watch cache.
 */
import { chromium } from 'playwright-core';
import { expectStatus, ApiClient } from './api-client.js';
import { loadKubeconfig } from './kubeconfig.js';
import { startLocalApiServer } from './local-cluster.js';
import { mean, percentile, round, runLoad } from './stats.js';
import { configMap, cpuSeconds, type BenchOptions, type ScenarioResult } from './workload.js';

const NS = 'console-bench';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const CHROMIUM = '/usr/bin/chromium';
/** The page's first seconds (discovery, first scrapes) are not idle: up to this long, at most a window, is let pass. */
const SETTLE_MS = 10_000;
/** Scrapes in a row whose CPU is measured. */
const SCRAPES = 100;

export async function runConsole(options: BenchOptions, log: (line: string) => void): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  results.push(...(await latencyWithAndWithout(options, log)));
  results.push(...(await idleOverview(options.consoleIdleSeconds, log)));
  return results;
}

type Side = 'on' | 'off';
const SIDES: readonly Side[] = ['on', 'off'];
/** Rounds of two fresh servers, started in turn in one order and the other. */
const ROUNDS = 2;

async function latencyWithAndWithout(options: BenchOptions, log: (line: string) => void): Promise<ScenarioResult[]> {
  const count = Math.min(options.count, 5000);
  const latencies: Record<string, Record<Side, number[]>> = {};
  const seconds: Record<string, number> = {};
  for (let round = 0; round < ROUNDS; round++) {
    // Which of two servers started first ran up to 1.3x slower in A/A runs of the ledger scenario:
    // each round starts them in the other order, so that the figures hold both orders alike.
    const order: Side[] = round % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
    const servers = {} as Record<Side, Awaited<ReturnType<typeof startLocalApiServer>>>;
    const clients = {} as Record<Side, ApiClient>;
    try {
      for (const side of order) {
        servers[side] = await startLocalApiServer({ args: [`--console=${side === 'on'}`] });
        clients[side] = new ApiClient(loadKubeconfig(servers[side].kubeconfig), options.concurrency);
      }
      for (const side of SIDES) {
        const c = clients[side];
        expectStatus(await c.request('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: NS } })), 201, 'namespace');
        expectStatus(await c.request('POST', CM, configMap('read-me')), 201, 'object');
      }
      expectStatus(await clients.on.request('GET', '/console/'), 200, 'console');
      expectStatus(await clients.off.request('GET', '/console/'), 404, '--console=false serves no /console/');
      const sideOf = (i: number): Side => (i % 2 === 0 ? 'on' : 'off');
      const timed = async (scenario: string, op: (side: Side, i: number) => Promise<void>) => {
        // Both warm first (JIT, caches), interleaved as the timed run.
        await runLoad({ concurrency: options.concurrency, count: 2 * Math.min(count, 1000) }, (i) => op(sideOf(i), -1 - Math.floor(i / 2)));
        latencies[scenario] ??= { on: [], off: [] };
        const load = await runLoad({ concurrency: options.concurrency, count: count * 2 }, async (i) => {
          const side = sideOf(i);
          const t0 = performance.now();
          await op(side, Math.floor(i / 2));
          latencies[scenario][side].push(performance.now() - t0);
        });
        seconds[scenario] = (seconds[scenario] ?? 0) + load.seconds;
        log(`console: ${scenario} with and without, round ${round + 1} of ${ROUNDS}, done`);
      };
      await timed('get', async (side) => {
        expectStatus(await clients[side].request('GET', `${CM}/read-me`), 200, 'get');
      });
      await timed('create', async (side, i) => {
        expectStatus(await clients[side].request('POST', CM, configMap(i < 0 ? `warm-${-i}` : `cm-${i}`)), 201, 'create');
      });
    } finally {
      for (const c of Object.values(clients)) c.close();
      for (const server of Object.values(servers)) await server.stop();
    }
  }
  const results: ScenarioResult[] = [];
  for (const [scenario, bySide] of Object.entries(latencies)) {
    for (const side of SIDES) {
      const xs = bySide[side];
      results.push({
        scenario: `${scenario}-console-${side}`,
        count: xs.length,
        rate: round(xs.length / seconds[scenario]),
        meanMs: round(mean(xs)),
        p50Ms: round(percentile(xs, 50)),
        p99Ms: round(percentile(xs, 99)),
        ...(side === 'on'
          ? {
              costVsOff: Number((mean(bySide.on) / mean(bySide.off)).toFixed(3)),
              p50VsOff: Number((percentile(bySide.on, 50) / percentile(bySide.off, 50)).toFixed(3)),
            }
          : {}),
      });
    }
  }
  return results;
}

/** The sum of apiserver_request_total over every label set. */
async function requestsServed(client: ApiClient): Promise<number> {
  const r = await client.request('GET', '/metrics');
  expectStatus(r, 200, 'metrics');
  let n = 0;
  for (const line of r.body.toString().split('\n'))
    if (line.startsWith('apiserver_request_total{')) n += Number(line.slice(line.lastIndexOf(' ') + 1));
  return n;
}

async function idleOverview(seconds: number, log: (line: string) => void): Promise<ScenarioResult[]> {
  const server = await startLocalApiServer({ args: ['--console=true'] });
  const target = loadKubeconfig(server.kubeconfig);
  const client = new ApiClient(target, 1);
  const settle = () => new Promise((r) => setTimeout(r, Math.min(SETTLE_MS, seconds * 1000)));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  /** The server's CPU and the requests it served over `seconds`. */
  const window = async () => {
    const [cpu0, req0, t0] = [await cpuSeconds(server.pid), await requestsServed(client), performance.now()];
    await new Promise((r) => setTimeout(r, seconds * 1000));
    // The two /metrics reads of this window are the bench's own: not counted.
    const [cpu1, req1, t1] = [await cpuSeconds(server.pid), await requestsServed(client), performance.now()];
    const s = (t1 - t0) / 1000;
    return { cpuPct: round((((cpu1 ?? 0) - (cpu0 ?? 0)) / s) * 100), requestsPerSecond: round((req1 - req0 - 1) / s) };
  };
  try {
    // The server's own first minutes (bootstrap, informers' first resyncs) are not idle either.
    await settle();
    const closed = await window();
    log(`console: idle without a browser ${closed.cpuPct}% CPU`);
    const cpuBefore = await cpuSeconds(server.pid);
    for (let i = 0; i < SCRAPES; i++) expectStatus(await client.request('GET', '/metrics'), 200, 'metrics');
    const cpuMsPerScrape = round((((await cpuSeconds(server.pid)) ?? 0) - (cpuBefore ?? 0)) * (1000 / SCRAPES));
    log(`console: one /metrics scrape ${cpuMsPerScrape} ms of server CPU`);
    const page = await (await browser.newContext({ ignoreHTTPSErrors: true })).newPage();
    await page.goto(`${target.server}/console/`);
    await page.fill('#token', target.token ?? '');
    await page.click('#signin button');
    await page.waitForSelector('#health-readyz h3.ok', { timeout: 30_000 });
    await settle();
    const open = await window();
    log(`console: idle with the overview open ${open.cpuPct}% CPU`);
    return [
      { scenario: 'console-idle-closed', seconds, serverCpuPct: closed.cpuPct, requestsPerSecond: closed.requestsPerSecond },
      { scenario: 'console-metrics-scrape', scrapes: SCRAPES, cpuMsPerScrape },
      {
        scenario: 'console-idle-overview',
        seconds,
        serverCpuPct: open.cpuPct,
        requestsPerSecond: open.requestsPerSecond,
        overviewCpuPct: round(open.cpuPct - closed.cpuPct),
      },
    ];
  } finally {
    await browser.close();
    client.close();
    await server.stop();
  }
}
