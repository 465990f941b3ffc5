/**
 * The request scenarios against the API server, in one namespace: create (the objects the others
 * use), get (consistent single-object reads), update (PUT with the resourceVersion read before) and
 * list (all objects in one page, and in pages; `label` names the two results).
 */
import { expectStatus, type ApiClient } from './api-client.js';
import { percentile, round, runLoad } from './stats.js';
import { configMap, objectName, residentBytes, type BenchOptions, type ScenarioResult } from './workload.js';

const cmPath = (ns: string, name = '') => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;

export async function runCreate(api: ApiClient, ns: string, options: BenchOptions): Promise<ScenarioResult> {
  const result = await runLoad({ concurrency: options.concurrency, count: options.count }, async (i) => {
    expectStatus(await api.request('POST', cmPath(ns), configMap(objectName(i))), 201, 'create');
  });
  if (result.count !== options.count) throw new Error(`create: ${result.errors} of ${options.count} creates failed`);
  return { scenario: 'create', ...result };
}

/** Untimed creates for `seconds` in a namespace of their own (connections, caches, JIT warm up). */
export async function runCreateWarmup(api: ApiClient, ns: string, concurrency: number, seconds: number): Promise<void> {
  await runLoad({ concurrency, seconds }, async (i) => {
    expectStatus(await api.request('POST', cmPath(ns), configMap(objectName(i))), 201, 'create warm-up');
  });
}

export async function runGet(
  api: ApiClient,
  ns: string,
  options: BenchOptions,
  onTimedStart?: () => Promise<void>,
): Promise<ScenarioResult> {
  const result = await runLoad(
    { concurrency: options.concurrency, seconds: options.seconds, warmupSeconds: options.warmupSeconds, onTimedStart },
    async () => {
      expectStatus(await api.request('GET', cmPath(ns, objectName(Math.floor(Math.random() * options.count)))), 200, 'get');
    },
  );
  return { scenario: 'get', ...result };
}

/** Each caller updates its own objects in turn: read once, then PUT with the resourceVersion held. */
export async function runUpdate(
  api: ApiClient,
  ns: string,
  options: BenchOptions,
  onTimedStart?: () => Promise<void>,
): Promise<ScenarioResult> {
  type ConfigMapBody = { data: { payload: string; n?: string } } & Record<string, unknown>;
  const held = new Map<number, ConfigMapBody>();
  const perCaller = Math.floor(options.count / options.concurrency);
  let conflicts = 0;
  const result = await runLoad(
    { concurrency: options.concurrency, seconds: options.seconds, warmupSeconds: options.warmupSeconds, onTimedStart },
    async (i, caller) => {
      const index = caller * perCaller + (i % perCaller);
      let obj = held.get(index);
      if (!obj)
        obj = JSON.parse(expectStatus(await api.request('GET', cmPath(ns, objectName(index))), 200, 'update read').body) as ConfigMapBody;
      obj.data = { payload: obj.data.payload, n: String(i) };
      const res = await api.request('PUT', cmPath(ns, objectName(index)), JSON.stringify(obj));
      if (res.status === 409) {
        conflicts++;
        held.delete(index);
        return;
      }
      held.set(index, JSON.parse(expectStatus(res, 200, 'update').body));
    },
  );
  return { scenario: 'update', ...result, conflicts };
}

/**
 * LIST of every object (a consistent read), unpaged and in pages; with a server pid, the server's
 * RSS before the first and after the last list, and its peak, sampled every 20 ms.
 */
export async function runList(
  api: ApiClient,
  ns: string,
  options: BenchOptions,
  serverPid?: number,
  label = 'list',
): Promise<ScenarioResult[]> {
  const rssBefore = await residentBytes(serverPid);
  let rssPeak = rssBefore ?? 0;
  const sampler = setInterval(() => {
    void residentBytes(serverPid).then((rss) => (rssPeak = Math.max(rssPeak, rss ?? 0)));
  }, 20);
  try {
    const whole: number[] = [];
    let bytes = 0;
    let items = 0;
    for (let i = 0; i < options.listRepeats; i++) {
      const t0 = performance.now();
      const res = expectStatus(await api.request('GET', cmPath(ns)), 200, 'list');
      whole.push(performance.now() - t0);
      bytes = Buffer.byteLength(res.body);
      items = (JSON.parse(res.body) as { items: unknown[] }).items.length;
    }
    const rssAfter = await residentBytes(serverPid);
    const paged: number[] = [];
    let pages = 0;
    for (let i = 0; i < options.listRepeats; i++) {
      const t0 = performance.now();
      pages = 0;
      let token = '';
      do {
        const query = `?limit=${options.pageSize}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
        const page = JSON.parse(expectStatus(await api.request('GET', cmPath(ns) + query), 200, 'list page').body) as {
          metadata: { continue?: string };
        };
        token = page.metadata.continue ?? '';
        pages++;
      } while (token);
      paged.push(performance.now() - t0);
    }
    const mb = (n: number | undefined) => (n === undefined ? 'n/a' : round(n / 2 ** 20));
    return [
      {
        scenario: label,
        items,
        responseMB: mb(bytes),
        p50Ms: round(percentile(whole, 50)),
        p99Ms: round(percentile(whole, 99)),
        rssBeforeMB: mb(rssBefore),
        rssAfterMB: mb(rssAfter),
        rssPeakMB: mb(rssBefore === undefined ? undefined : rssPeak),
        rssGrowthMB: rssBefore === undefined || rssAfter === undefined ? 'n/a' : mb(rssAfter - rssBefore),
      },
      {
        scenario: `${label}-paged-${options.pageSize}`,
        items,
        pages,
        p50Ms: round(percentile(paged, 50)),
        p99Ms: round(percentile(paged, 99)),
      },
    ];
  } finally {
    clearInterval(sampler);
  }
}
