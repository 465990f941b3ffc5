/**
 * End to end: backup and restore of the embedded store with orch-backup (scripts/backup.ts) while an
 * API server writes, and of an etcd store with etcdctl snapshot save / restore (when etcdctl is on
 * this machine). Writers create ConfigMaps and bump a counter continuously; a snapshot is saved
 * mid-stream; the restore goes into a new data dir, a server starts on it, and every write
 * acknowledged before the backup began is there, the snapshot is one revision (no acknowledged write
 * older than the newest restored one is missing), and resourceVersions go on from the snapshot's.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNamespace } from '../support/namespaces.js';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { startEtcd } from '../support/etcd.js';
import { freePort } from '../support/free-ports.js';
import { run, startProcess } from '../support/processes.js';
import { eventually } from '../support/eventually.js';
import type { TestClient } from '../support/http-client.js';

const BACKUP = 'dist/scripts/backup.js';
const NS = 'backup';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;

interface Ack {
  name: string;
  rv: number;
  at: number;
}

/** Writers that create ConfigMaps and update a counter until stopped; records every acknowledged write. */
function startWriters(client: TestClient, writers = 3) {
  const acked: Ack[] = [];
  const counter: { n: number; at: number }[] = [];
  let stopped = false;
  let seq = 0;
  const loops = Array.from({ length: writers }, async (_, w) => {
    while (!stopped) {
      const name = `w${w}-${seq++}`;
      const r = await client.post(CMS, { metadata: { name }, data: { v: name } });
      assert.equal(r.status, 201, r.text);
      acked.push({ name, rv: Number(r.body.metadata.resourceVersion), at: Date.now() });
      if (w === 0) {
        const n = counter.length + 1;
        const u = await client.patch(`${CMS}/counter`, { data: { n: String(n) } }, 'application/merge-patch+json');
        assert.equal(u.status, 200, u.text);
        counter.push({ n, at: Date.now() });
      }
    }
  });
  return {
    acked,
    counter,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** What a restored server holds, checked against what the writers were told before `began`. */
async function checkRestored(client: TestClient, acked: Ack[], counter: { n: number; at: number }[], began: number) {
  const list = await client.get(CMS);
  assert.equal(list.status, 200, list.text);
  const stored = new Map<string, number>(
    list.body.items.map((i: { metadata: { name: string; resourceVersion: string } }) => [
      i.metadata.name,
      Number(i.metadata.resourceVersion),
    ]),
  );
  const before = acked.filter((a) => a.at < began);
  assert.ok(before.length > 20, `only ${before.length} writes before the backup`);
  for (const a of before) assert.equal(stored.get(a.name), a.rv, `${a.name} (acknowledged at rv ${a.rv} before the backup) restored`);
  // One revision: nothing acknowledged at or below the newest restored revision is missing.
  const newest = Math.max(...[...stored.entries()].filter(([n]) => n !== 'counter').map(([, rv]) => rv));
  for (const a of acked.filter((x) => x.rv <= newest)) assert.equal(stored.get(a.name), a.rv, `${a.name} missing below rv ${newest}`);
  const n = Number((await client.get(`${CMS}/counter`)).body.data.n);
  const ackedCounter = counter.filter((c) => c.at < began).at(-1)?.n ?? 0;
  assert.ok(n >= ackedCounter, `counter ${n} older than the acknowledged ${ackedCounter}`);
  // resourceVersions go on from the snapshot's.
  const next = await client.post(CMS, { metadata: { name: 'after-restore' } });
  assert.equal(next.status, 201, next.text);
  assert.ok(Number(next.body.metadata.resourceVersion) > Math.max(newest, Number(list.body.metadata.resourceVersion) - 1));
  return { restored: stored.size, before: before.length, total: acked.length };
}

describe('backup and restore', () => {
  const dirs: string[] = [];
  const servers: TestServer[] = [];
  const tmp = async (prefix: string) => {
    const d = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  after(async () => {
    for (const s of servers) await s.stop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('embedded store: orch-backup save while writes go on, restore into a new data dir, every acknowledged write is there', async (t) => {
    const server = await startTestServer({ process: true });
    servers.push(server);
    await createNamespace(server.client, NS);
    assert.equal((await server.client.post(CMS, { metadata: { name: 'counter' }, data: { n: '0' } })).status, 201);
    const writers = startWriters(server.client);
    await new Promise((r) => setTimeout(r, 1500));
    const file = join(await tmp('orch-backup-'), 'orch.snapshot');
    const began = Date.now();
    const saved = await run(process.execPath, [BACKUP, 'save', '--data-dir', server.dataDir, file]);
    assert.equal(saved.code, 0, saved.stderr);
    assert.match(saved.stdout, /^saved .*state\.db at revision \d+ \(\d+ keys, \d+ bytes\) to .*orch\.snapshot in [\d.]+s\n$/);
    await new Promise((r) => setTimeout(r, 500)); // writes go on after the snapshot
    await writers.stop();
    assert.ok(
      writers.acked.some((a) => a.at > began + 100),
      'writes went on during and after the backup',
    );

    const status = await run(process.execPath, [BACKUP, 'status', file]);
    assert.equal(status.code, 0, status.stderr);
    const figures = JSON.parse(status.stdout);
    assert.equal(figures.integrity, 'ok');
    assert.ok(figures.revision >= Math.max(...writers.acked.filter((a) => a.at < began).map((a) => a.rv)));

    const restoredDir = await tmp('orch-restored-');
    const restored = await run(process.execPath, [BACKUP, 'restore', file, '--data-dir', restoredDir]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, new RegExp(`^restored revision ${figures.revision} `));
    const again = await run(process.execPath, [BACKUP, 'restore', file, '--data-dir', restoredDir]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /state\.db exists: restore into a data dir without a store/);

    await server.shutdown();
    const second = await startTestServer({ process: true, dataDir: restoredDir });
    servers.push(second);
    const figuresOfRestore = await checkRestored(second.client, writers.acked, writers.counter, began);
    t.diagnostic(`${JSON.stringify({ ...figuresOfRestore, snapshotRevision: figures.revision })}`);
  });

  it('orch-backup refuses a bad command line (2) and a data dir without a store (1)', async () => {
    const usage = await run(process.execPath, [BACKUP, 'save', 'x']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /save needs --data-dir/);
    const empty = await tmp('orch-backup-empty-');
    const none = await run(process.execPath, [BACKUP, 'save', '--data-dir', empty, join(empty, 'snap')]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /state\.db does not exist/);
    const help = await run(process.execPath, [BACKUP, '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /etcdctl snapshot save FILE, etcdutl snapshot restore FILE/);
  });

  const etcdctl = spawnSync('etcdctl', ['version']).status === 0;
  it('etcd store: etcdctl snapshot save while writes go on, etcdctl snapshot restore into a new member, every acknowledged write is there', {
    skip: etcdctl ? false : 'etcdctl is not on PATH',
  }, async (t) => {
    const etcd = await startEtcd();
    const prefix = '/registry-backup';
    const server = await startTestServer({ process: true, etcd: etcd.endpoint, etcdPrefix: prefix });
    servers.push(server);
    await createNamespace(server.client, NS);
    assert.equal((await server.client.post(CMS, { metadata: { name: 'counter' }, data: { n: '0' } })).status, 201);
    const writers = startWriters(server.client);
    await new Promise((r) => setTimeout(r, 1500));
    const dir = await tmp('orch-etcd-backup-');
    const file = join(dir, 'etcd.snapshot');
    const began = Date.now();
    const saved = await run('etcdctl', ['--endpoints', etcd.endpoint, 'snapshot', 'save', file], { env: { ETCDCTL_API: '3' } });
    assert.equal(saved.code, 0, saved.stderr);
    await new Promise((r) => setTimeout(r, 500));
    await writers.stop();
    await server.shutdown();
    await etcd.stop();

    // A new one-member cluster from the snapshot (etcdutl snapshot restore in etcd ≥ 3.5).
    const [client, peer] = [await freePort(), await freePort()];
    const dataDir = join(dir, 'restored.etcd');
    const restore = await run(
      'etcdctl',
      [
        'snapshot',
        'restore',
        file,
        `--data-dir=${dataDir}`,
        '--name=restored',
        `--initial-cluster=restored=http://127.0.0.1:${peer}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${peer}`,
      ],
      { env: { ETCDCTL_API: '3' } },
    );
    assert.equal(restore.code, 0, restore.stderr);
    const clientUrl = `http://127.0.0.1:${client}`;
    const restored = startProcess('/usr/bin/etcd', [
      '--name=restored',
      `--data-dir=${dataDir}`,
      `--listen-client-urls=${clientUrl}`,
      `--advertise-client-urls=${clientUrl}`,
      `--listen-peer-urls=http://127.0.0.1:${peer}`,
      '--log-level=error',
    ]);
    let second: TestServer | undefined;
    t.after(async () => {
      await second?.stop(); // before its etcd
      await restored.stop();
    });
    await eventually('the restored etcd healthy', async () => (await fetch(`${clientUrl}/health`).catch(() => undefined))?.status === 200);
    second = await startTestServer({ process: true, etcd: clientUrl, etcdPrefix: prefix });
    t.diagnostic(JSON.stringify(await checkRestored(second.client, writers.acked, writers.counter, began)));
  });
});
