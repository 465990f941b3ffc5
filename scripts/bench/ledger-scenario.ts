/**
 * The revision ledger's cost (issue 28): two orch-apiservers on the embedded store, one with the
 * ledger (--history-retention=24h) and one without (--history-retention=0, the default), started side
 * by side; creates, then updates, of ~1 KiB ConfigMaps sent to both interleaved request by request
 * (so machine load falls alike on both; target: the ledger costs ≤ 10%). Then the bytes each
 * revision stores (objects' rows against the ledger's, read from the stopped server's SQLite file)
 * and the p99 of a history read (limit 50) of one object with min(2,000, --count) revisions
 * among everything else the run stored; then the same read once the store holds
 * --ledger-stored-revisions (default 1,000,000) revisions: the stopped server's file is filled with
 * more revisions of the run's ConfigMaps (rows copied in SQL, with their ledger records: the API
 * would take many minutes to write them) and a server started on it again. On etcd the same read
 * once etcd holds that many revisions (small puts of its own keys, the server running).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Etcd3 } from 'etcd3';
import { expectStatus, ApiClient } from './api-client.js';
import { loadKubeconfig } from './kubeconfig.js';
import { startLocalApiServer, startLocalEtcd, type LocalEtcd } from './local-cluster.js';
import { mean, percentile, round, runLoad } from './stats.js';
import { configMap, cpuSeconds, PAYLOAD, writtenBytes, type BenchOptions, type ScenarioResult } from './workload.js';

const NS = 'ledger-bench';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const MERGE = 'application/merge-patch+json';
/** Blocks of the throughput comparison (a multiple of 4: ABBA). */
const BLOCKS = 8;

export async function runLedger(
  options: BenchOptions & { ledgerObjectRevisions?: number },
  log: (line: string) => void,
  setup: { backend?: 'sqlite' | 'etcd'; nodeArgs?: string[]; onRetention?: string } = {},
): Promise<ScenarioResult[]> {
  const onEtcd = setup.backend === 'etcd';
  const nodeArgs = setup.nodeArgs ?? [];
  const dataDir = await mkdtemp(join(tmpdir(), 'orch-ledger-bench-'));
  // On etcd each server has an etcd of its own: compaction is the whole store's, and each etcd's CPU is its server's.
  const etcds: LocalEtcd[] = onEtcd ? [await startLocalEtcd(), await startLocalEtcd()] : [];
  const on = await startLocalApiServer({
    etcd: etcds[0]?.endpoint,
    nodeArgs,
    args: [`--data-dir=${dataDir}`, `--history-retention=${setup.onRetention ?? '24h'}`],
  });
  const off = await startLocalApiServer({ etcd: etcds[1]?.endpoint, nodeArgs, args: ['--history-retention=0'] });
  const pids = { on: { server: on.pid, etcd: etcds[0]?.pid }, off: { server: off.pid, etcd: etcds[1]?.pid } };
  const cpuOf = async () => {
    const out = { on: { server: 0, etcd: 0, written: 0 }, off: { server: 0, etcd: 0, written: 0 } };
    for (const side of ['on', 'off'] as const) {
      for (const p of ['server', 'etcd'] as const) out[side][p] = (await cpuSeconds(pids[side][p])) ?? 0;
      // The bytes the store wrote to disk: the server's own file on SQLite, etcd's on etcd.
      out[side].written = (await writtenBytes(onEtcd ? pids[side].etcd : pids[side].server)) ?? 0;
    }
    return out;
  };
  const clients = {
    on: new ApiClient(loadKubeconfig(on.kubeconfig), options.concurrency),
    off: new ApiClient(loadKubeconfig(off.kubeconfig), options.concurrency),
  };
  const sideOf = (i: number) => (i % 2 === 0 ? 'on' : 'off');
  const results: ScenarioResult[] = [];
  try {
    for (const c of Object.values(clients))
      expectStatus(await c.request('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: NS } })), 201, 'namespace');
    const timed = async (scenario: string, count: number, op: (side: 'on' | 'off', i: number) => Promise<void>) => {
      const latencies = { on: [] as number[], off: [] as number[] };
      const cpu0 = await cpuOf();
      const load = await runLoad({ concurrency: options.concurrency, count: count * 2 }, async (i) => {
        const side = sideOf(i);
        const t0 = performance.now();
        await op(side, Math.floor(i / 2));
        latencies[side].push(performance.now() - t0);
      });
      const cpu1 = await cpuOf();
      // CPU per request (µs) of each side's server and etcd: steadier than latency on a shared machine.
      const perReq = (side: 'on' | 'off', p: 'server' | 'etcd' | 'written') =>
        Math.round(((cpu1[side][p] - cpu0[side][p]) * 1e6) / Math.max(1, latencies[side].length));
      for (const side of ['on', 'off'] as const) {
        results.push({
          scenario: `${scenario}-ledger-${side}`,
          count: latencies[side].length,
          rate: round(latencies[side].length / load.seconds),
          meanMs: round(mean(latencies[side])),
          p99Ms: round(percentile(latencies[side], 99)),
          serverCpuUsPerReq: perReq(side, 'server'),
          ...(onEtcd ? { etcdCpuUsPerReq: perReq(side, 'etcd') } : {}),
          diskBytesPerReq: Math.round((cpu1[side].written - cpu0[side].written) / Math.max(1, latencies[side].length)),
        });
      }
      // The ledger's cost: its mean latency over the one without (target ≤ 1.1), and its server CPU's.
      const onResult = results[results.length - 2];
      onResult.costVsOff = Number((mean(latencies.on) / mean(latencies.off)).toFixed(3));
      onResult.cpuCostVsOff = Number((perReq('on', 'server') / Math.max(1, perReq('off', 'server'))).toFixed(3));
      log(`ledger: ${scenario} done`);
    };
    /**
     * Throughput in blocks: BLOCKS blocks of `count / 2` operations, each sent to one server
     * alone at full concurrency, in the order on, off, off, on, on, off, … (ABBA: a drift of the
     * machine's speed during the run falls alike on both). throughputCostVsOff is the off side's
     * operations per second over the on side's, all blocks together (target ≤ 1.1); the pairs' own
     * ratios give its spread. Request by request, the other server's answers share the
     * client's and the machine's time with each latency; a block has the machine to itself.
     */
    const blocks = async (scenario: string, count: number, op: (side: 'on' | 'off', block: number, i: number) => Promise<void>) => {
      const per = Math.max(1, Math.floor(count / 2));
      const seconds = { on: [] as number[], off: [] as number[] };
      for (let b = 0; b < BLOCKS; b++) {
        const side = (b + 1) % 4 < 2 ? 'on' : 'off';
        const t0 = performance.now();
        const load = await runLoad({ concurrency: options.concurrency, count: per }, (i) => op(side, b, i));
        if (load.errors > 0) throw new Error(`ledger: ${scenario} block ${b} had ${load.errors} errors`);
        seconds[side].push((performance.now() - t0) / 1000);
      }
      const sum = (xs: number[]) => xs.reduce((a, c) => a + c, 0);
      const pairs = seconds.on.map((on, k) => on / seconds.off[k]).sort((a, c) => a - c);
      results.push({
        scenario: `${scenario}-blocks`,
        count: per * BLOCKS,
        concurrency: options.concurrency,
        rateOn: round((per * seconds.on.length) / sum(seconds.on)),
        rateOff: round((per * seconds.off.length) / sum(seconds.off)),
        throughputCostVsOff: Number((sum(seconds.on) / sum(seconds.off)).toFixed(3)),
        pairMin: Number(pairs[0].toFixed(3)),
        pairMax: Number(pairs[pairs.length - 1].toFixed(3)),
      });
      log(`ledger: ${scenario} in blocks done`);
    };
    const count = Math.min(options.count, 5000);
    // Both servers warm first (JIT, caches): unwarmed, whichever started first ran up to 1.3x slower
    // in an A/A run of two identical servers, more than the ledger costs.
    await runLoad({ concurrency: options.concurrency, count: 2 * Math.min(count, 1000) }, async (i) => {
      expectStatus(await clients[sideOf(i)].request('POST', CM, configMap(`warm-${Math.floor(i / 2)}`)), 201, 'warm-up');
    });
    await timed('create', count, async (side, i) => {
      expectStatus(await clients[side].request('POST', CM, configMap(`cm-${i}`)), 201, 'create');
    });
    await timed('update', count, async (side, i) => {
      const body = JSON.stringify({ data: { payload: `${PAYLOAD.slice(10)}${String(i).padStart(10, '0')}` } });
      expectStatus(await clients[side].request('PATCH', `${CM}/cm-${i % count}`, body, MERGE), 200, 'update');
    });
    await blocks('create', count, async (side, b, i) => {
      expectStatus(await clients[side].request('POST', CM, configMap(`block-${b}-${i}`)), 201, 'create');
    });
    await blocks('update', count, async (side, b, i) => {
      const body = JSON.stringify({ data: { payload: `${PAYLOAD.slice(10)}${String(b * count + i).padStart(10, '0')}` } });
      expectStatus(await clients[side].request('PATCH', `${CM}/cm-${i % count}`, body, MERGE), 200, 'update');
    });
    // One object with many revisions among everything stored so far.
    const revisions = options.ledgerObjectRevisions ?? Math.min(2000, options.count);
    expectStatus(await clients.on.request('POST', CM, configMap('hot')), 201, 'hot');
    await runLoad({ concurrency: 1, count: revisions }, async (i) => {
      expectStatus(await clients.on.request('PATCH', `${CM}/hot`, JSON.stringify({ data: { n: String(i) } }), MERGE), 200, 'hot update');
    });
    results.push(...(await historyReads(clients.on, 'history-read', { objectRevisions: revisions + 1 })));
    // On etcd the store's revisions are filled while the server runs: puts of small keys of etcd's own, to the revision asked.
    if (onEtcd && options.ledgerStoredRevisions > 0) {
      const stored = await fillEtcdRevisions(etcds[0].endpoint, options.ledgerStoredRevisions);
      log(`ledger: etcd holds ${stored} revisions`);
      results.push(...(await historyReads(clients.on, 'history-read-stored', { storedRevisions: stored })));
    }
  } finally {
    clients.on.close();
    clients.off.close();
    await on.stop();
    await off.stop();
    for (const e of etcds) await e.stop();
  }
  // The stored-revisions read and the bytes per revision are read from the embedded store's file.
  if (onEtcd) {
    await rm(dataDir, { recursive: true, force: true });
    return results;
  }
  if (options.ledgerStoredRevisions > 0) {
    const stored = fillRevisions(join(dataDir, 'state.db'), options.ledgerStoredRevisions);
    log(`ledger: the store holds ${stored} revisions`);
    const again = await startLocalApiServer({ args: [`--data-dir=${dataDir}`, '--history-retention=24h'] });
    const client = new ApiClient(loadKubeconfig(again.kubeconfig), options.concurrency);
    try {
      await runLoad({ concurrency: 4, count: 100 }, async () => {
        expectStatus(await client.request('GET', `${CM}/hot/history?limit=50`), 200, 'history warm-up');
      });
      results.push(...(await historyReads(client, 'history-read-stored', { storedRevisions: stored })));
    } finally {
      client.close();
      await again.stop();
    }
  }
  try {
    const db = new Database(join(dataDir, 'state.db'), { readonly: true });
    const bytes = (sql: string) => db.prepare(sql).get() as { n: number; b: number };
    // The ledger's records are the side columns of the rows they went with (storage/sqlite/schema.ts):
    // the record and its two integers' headers; the rest of the row is the object's.
    const rows = `FROM kine WHERE name >= CAST('/registry/configmaps/${NS}/' AS BLOB) AND name < CAST('/registry/configmaps/${NS}0' AS BLOB)`;
    const ledger = bytes(`SELECT COUNT(*) AS n, SUM(LENGTH(side) + 4) AS b ${rows} AND side IS NOT NULL`);
    const objects = bytes(`SELECT COUNT(*) AS n, SUM(LENGTH(name) + LENGTH(value) + LENGTH(old_value) + 48) AS b ${rows}`);
    db.close();
    results.push({
      scenario: 'bytes-per-revision',
      revisions: objects.n,
      objectBytesPerRevision: round(objects.b / Math.max(1, objects.n)),
      ledgerBytesPerRevision: round(ledger.b / Math.max(1, ledger.n)),
    });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  return results;
}

/**
 * History reads (limit 50) of the hot ConfigMap: 400 of them 4 at a time (the server, its store and
 * the bench share the 2 cores: a read waits for the others' CPU), then 200 one at a time (`-sequential`:
 * a read's own latency).
 */
async function historyReads(client: ApiClient, scenario: string, extra: Record<string, number>): Promise<ScenarioResult[]> {
  const rows: ScenarioResult[] = [];
  for (const [suffix, concurrency, count] of [
    ['', 4, 400],
    ['-sequential', 1, 200],
  ] as const) {
    const reads = await runLoad({ concurrency, count }, async () => {
      expectStatus(await client.request('GET', `${CM}/hot/history?limit=50`), 200, 'history');
    });
    rows.push({ scenario: `${scenario}${suffix}`, count: reads.count, concurrency, ...extra, p50Ms: reads.p50Ms, p99Ms: reads.p99Ms });
  }
  return rows;
}

/**
 * Puts small keys outside the server's prefix into etcd until its revision reaches `target` (a
 * revision per put, so etcd's MVCC history, and its index, hold that many); returns the revision.
 */
async function fillEtcdRevisions(endpoint: string, target: number): Promise<number> {
  const client = new Etcd3({ hosts: endpoint });
  try {
    const value = Buffer.alloc(100, 'x');
    let revision = Number((await client.kv.range({ key: Buffer.from('/'), count_only: true })).header.revision);
    let next = 0;
    const worker = async () => {
      while (revision < target) {
        const res = await client.kv.put({ key: Buffer.from(`/bench-fill/${next++ % 10_000}`), value });
        revision = Math.max(revision, Number(res.header.revision));
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    return revision;
  } finally {
    client.close();
  }
}

/**
 * Appends revisions to the bench's ConfigMaps (but the hot one) in the stopped server's file until
 * the kine table holds `target` rows: each an update of a key repeating its value, with its ledger
 * record, as the store itself would append them (storage/sqlite/schema.ts). Returns the row count.
 */
function fillRevisions(file: string, target: number): number {
  const db = new Database(file);
  try {
    const count = () => db.prepare<[], number>('SELECT COUNT(*) FROM kine').pluck().get() ?? 0;
    const keys = db
      .prepare<[], { name: Buffer; id: number; create_revision: number; created: number; value: Buffer }>(
        `SELECT k.name, k.id, k.create_revision, k.created, k.value FROM kine k
         JOIN (SELECT MAX(id) AS id FROM kine WHERE name >= CAST('/registry/configmaps/${NS}/' AS BLOB)
               AND name < CAST('/registry/configmaps/${NS}0' AS BLOB) GROUP BY name) m ON k.id = m.id
         WHERE k.deleted = 0 AND k.name <> CAST('/registry/configmaps/${NS}/hot' AS BLOB)`,
      )
      .all();
    if (keys.length === 0) return count();
    const insert = db.prepare(
      `INSERT INTO kine (name, created, deleted, create_revision, prev_revision, value, old_value, side, side_create, side_expires)
       VALUES (@name, 0, 0, @create_revision, @prev_revision, @value, @value, @side, @side_create, 0)`,
    );
    // The create revision of the key's ledger record (side_create 0: the row's own id).
    const sideCreate = db
      .prepare<[Buffer], number>(
        'SELECT COALESCE(NULLIF(side_create, 0), id) FROM kine WHERE name = ? AND side IS NOT NULL ORDER BY id DESC LIMIT 1',
      )
      .pluck();
    const side = Buffer.from(JSON.stringify({ operation: 'update', user: 'bench', time: new Date().toISOString() }));
    const last = keys.map((k) => ({
      ...k,
      create_revision: k.created ? k.id : k.create_revision,
      side_create: sideCreate.get(k.name) ?? k.id,
    }));
    let missing = target - count();
    const batch = db.transaction((n: number) => {
      for (let i = 0; i < n; i++) {
        const k = last[i % last.length];
        k.id = Number(
          insert.run({
            name: k.name,
            create_revision: k.create_revision,
            prev_revision: k.id,
            value: k.value,
            side,
            side_create: k.side_create,
          }).lastInsertRowid,
        );
      }
    });
    while (missing > 0) {
      const n = Math.min(missing, 50_000);
      batch(n);
      missing -= n;
    }
    return count();
  } finally {
    db.close();
  }
}
