/**
 * Custom resources against ConfigMaps: a CRD with a 20-field schema and two CEL rules, then `count`
 * custom objects created and listed, next to the same for ConfigMaps of about the same size, in
 * namespaces of their own. The ratios say what a run-time schema (validation, pruning, CEL) costs
 * against a built-in kind on the same generic store.
 */
import { expectStatus, type ApiClient } from './api-client.js';
import { namespacedCrd } from './crd-manifest.js';
import { percentile, round, runLoad } from './stats.js';
import { configMap, objectName, PAYLOAD, type BenchOptions, type ScenarioResult } from './workload.js';

const GROUP = 'bench.example.com';
const PLURAL = 'benchwidgets';

/** Twenty fields: a payload like the ConfigMaps', strings, integers with bounds, booleans, an enum and a list. */
function specSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = { payload: { type: 'string', maxLength: 1024 } };
  for (let i = 1; i <= 6; i++) properties[`name${i}`] = { type: 'string', maxLength: 64 };
  for (let i = 1; i <= 6; i++) properties[`count${i}`] = { type: 'integer', minimum: 0, maximum: 1_000_000 };
  for (let i = 1; i <= 4; i++) properties[`flag${i}`] = { type: 'boolean' };
  properties.mode = { type: 'string', enum: ['fast', 'slow'] };
  properties.tags = { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 32 } };
  properties.created = { type: 'string', format: 'date-time' };
  return {
    type: 'object',
    required: ['payload', 'count1', 'count2'],
    properties,
    'x-orch-validations': [
      { rule: 'self.count1 <= self.count2', message: 'count1 must not exceed count2' },
      { rule: "self.name1.startsWith('w')", message: 'name1 starts with w' },
    ],
  };
}

function crd(apiextensions: string): string {
  return JSON.stringify(
    namespacedCrd(apiextensions, GROUP, { plural: PLURAL, kind: 'BenchWidget' }, { type: 'object', properties: { spec: specSchema() } }),
  );
}

function widget(name: string, i: number): string {
  const spec: Record<string, unknown> = { payload: PAYLOAD, mode: 'fast', tags: ['a', 'b'], created: '2024-01-01T00:00:00Z' };
  for (let k = 1; k <= 6; k++) spec[`name${k}`] = `w-${name}-${k}`;
  for (let k = 1; k <= 6; k++) spec[`count${k}`] = i + k;
  for (let k = 1; k <= 4; k++) spec[`flag${k}`] = k % 2 === 0;
  return JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'BenchWidget', metadata: { name, labels: { bench: 'orch' } }, spec });
}

/** LISTs of each path in turn (so both see the same machine), after one untimed LIST of each. */
async function listTimes(api: ApiClient, paths: string[], repeats: number): Promise<{ items: number; p50Ms: number }[]> {
  const times = paths.map(() => [] as number[]);
  const items = paths.map(() => 0);
  for (let i = -1; i < repeats; i++) {
    for (const [k, path] of paths.entries()) {
      const t0 = performance.now();
      const res = expectStatus(await api.request('GET', path), 200, 'list');
      if (i >= 0) times[k].push(performance.now() - t0);
      items[k] = (JSON.parse(res.body) as { items: unknown[] }).items.length;
    }
  }
  return paths.map((_, k) => ({ items: items[k], p50Ms: round(percentile(times[k], 50)) }));
}

/** Untimed creates of each kind first (a tenth of the count, at most this many), so neither measurement pays for warming up the server. */
const WARMUP_OBJECTS = 200;

export async function runCustomResources(api: ApiClient, ns: string, options: BenchOptions): Promise<ScenarioResult[]> {
  const groups = JSON.parse(expectStatus(await api.request('GET', '/apis'), 200, 'discovery').body) as { groups: { name: string }[] };
  const apiextensions = groups.groups.find((g) => g.name.startsWith('apiextensions.'))?.name;
  if (!apiextensions) throw new Error('custom-resources: the server serves no apiextensions group');
  const crds = `/apis/${apiextensions}/v1/customresourcedefinitions`;
  const existing = await api.request('GET', `${crds}/${PLURAL}.${GROUP}`);
  if (existing.status === 404) expectStatus(await api.request('POST', crds, crd(apiextensions)), 201, 'CRD');
  const crs = `/apis/${GROUP}/v1/namespaces/${ns}-cr/${PLURAL}`;
  const cms = `/api/v1/namespaces/${ns}-cm/configmaps`;
  for (const n of [`${ns}-cr`, `${ns}-cm`]) {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: n } });
    expectStatus(await api.request('POST', '/api/v1/namespaces', body), 201, 'namespace');
  }
  for (let i = 0; (await api.request('GET', crs)).status !== 200; i++) {
    if (i > 200) throw new Error('custom-resources: the CRD was not served within 10 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  const warm = { concurrency: options.concurrency, count: Math.min(WARMUP_OBJECTS, Math.ceil(options.count / 10)) };
  await runLoad(warm, async (i) => {
    expectStatus(await api.request('POST', cms, configMap(`warm-${i}`)), 201, 'configmap create');
    expectStatus(await api.request('POST', crs, widget(`warm-${i}`, i)), 201, 'custom object create');
  });
  const load = { concurrency: options.concurrency, count: options.count };
  const cmCreate = await runLoad(load, async (i) => {
    expectStatus(await api.request('POST', cms, configMap(objectName(i))), 201, 'configmap create');
  });
  const crCreate = await runLoad(load, async (i) => {
    expectStatus(await api.request('POST', crs, widget(objectName(i), i)), 201, 'custom object create');
  });
  if (crCreate.count !== options.count) throw new Error(`custom-resources: ${crCreate.errors} of ${options.count} creates failed`);
  const [cmList, crList] = await listTimes(api, [cms, crs], options.listRepeats);
  return [
    {
      scenario: 'crd-create',
      count: crCreate.count,
      rate: crCreate.rate,
      p50Ms: crCreate.p50Ms,
      p99Ms: crCreate.p99Ms,
      configMapRate: cmCreate.rate,
      rateVsConfigMaps: round(crCreate.rate / cmCreate.rate),
    },
    {
      scenario: 'crd-list',
      items: crList.items,
      p50Ms: crList.p50Ms,
      configMapP50Ms: cmList.p50Ms,
      throughputVsConfigMaps: round(cmList.p50Ms / crList.p50Ms),
    },
  ];
}
