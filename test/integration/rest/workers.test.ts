/**
 * --workers 2 on both backends: the REST conformance suite through two worker processes, metrics
 * summed over the workers, and a client that moves between the workers (a new connection per request,
 * accepted by either worker) never sees an older resourceVersion than one it already saw.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { startEtcd, type EtcdProcess } from '../../support/etcd.js';
import { createNamespace } from '../../support/namespaces.js';
import { runRestConformance } from './conformance.js';
import { newTestClient } from '../../support/http-client.js';
import { eventually } from '../../support/eventually.js';

/** The worker processes of a server started with --workers: the processes its supervisor forked (they share its command line). */
function workerPids(dataDir: string): number[] {
  const procs = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => !!m && m[3].includes(dataDir))
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]) }));
  const pids = new Set(procs.map((p) => p.pid));
  return procs.filter((p) => pids.has(p.ppid)).map((p) => p.pid);
}

const WORKERS = ['--workers=2', '--authorization-mode=RBAC'];
/** A user whose only rights come from a RoleBinding: what the RBAC informers of a worker must know. */
const READER = { token: 'reader-token', line: 'reader-token,reader,reader-uid,""' };
let etcd: EtcdProcess;
before(async () => {
  etcd = await startEtcd();
});
after(async () => {
  await etcd?.stop();
});

const backends: [string, () => Promise<TestServer>][] = [
  ['sqlite', () => startTestServer({ process: true, args: WORKERS, tokens: [READER.line] })],
  ['etcd', () => startTestServer({ process: true, etcd: etcd.endpoint, args: WORKERS, tokens: [READER.line] })],
];

for (const [backend, start] of backends) {
  runRestConformance(backend, start, '--workers=2');

  describe(`--workers=2 (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await start();
    });
    after(async () => {
      await s?.stop();
    });

    it('runs two workers on one port; a client moving between them never sees time go backwards', async () => {
      // Ready answers once one worker is; the supervisor logs when both listen.
      for (const deadline = Date.now() + 30_000; !s.logs().includes('"msg":"workers serving"') && Date.now() < deadline; ) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.match(s.logs(), /"msg":"workers serving".*"workers":2,/);
      const c = s.client;
      const ns = 'alternating';
      await createNamespace(c, ns);
      const path = `/api/v1/namespaces/${ns}/configmaps`;
      // Connection: close makes every request a new connection, which either worker may accept.
      const elsewhere = { headers: { Connection: 'close' } };
      let seen = 0;
      const newer = (what: string, rv: string) => {
        const n = Number(rv);
        assert.ok(n >= seen, `${what}: resourceVersion ${n} is older than ${seen}, already seen`);
        seen = n;
      };
      for (let i = 0; i < 30; i++) {
        const name = `cm-${i % 5}`;
        const current = await c.request('GET', `${path}/${name}`, elsewhere);
        const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: String(i) } };
        const written =
          current.status === 404
            ? await c.request('POST', path, { ...elsewhere, body })
            : await c.request('PUT', `${path}/${name}`, {
                ...elsewhere,
                body: { ...body, metadata: { ...body.metadata, resourceVersion: current.body.metadata.resourceVersion } },
              });
        assert.ok(written.status === 200 || written.status === 201, written.text);
        newer('write', written.body.metadata.resourceVersion);
        const read = await c.request('GET', `${path}/${name}`, elsewhere);
        assert.equal(read.status, 200, read.text);
        assert.equal(read.body.data.i, String(i));
        newer('consistent get', read.body.metadata.resourceVersion);
        const list = await c.request('GET', path, elsewhere);
        assert.equal(list.status, 200, list.text);
        newer('consistent list', list.body.metadata.resourceVersion);
        const notOlder = await c.request('GET', `${path}?resourceVersion=${seen}`, elsewhere);
        assert.equal(notOlder.status, 200, notOlder.text);
        newer('list not older than', notOlder.body.metadata.resourceVersion);
        assert.equal(notOlder.body.items.find((o: { metadata: { name: string } }) => o.metadata.name === name)?.data.i, String(i));
      }
      // /metrics on either worker counts the requests of both: 25 GETs of an existing object before
      // the writes and 30 after them answered 200.
      for (let i = 0; i < 2; i++) {
        const metrics = await c.request('GET', '/metrics', elsewhere);
        const line =
          /apiserver_request_total\{verb="GET",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="resource",component="apiserver",code="200"\} (\d+)/.exec(
            metrics.text,
          );
        assert.equal(line?.[1], '55', metrics.text.slice(0, 2000));
      }
    });

    it('forks its workers with the server heap settings (a larger young generation) on top of its own node arguments', async () => {
      const pids = await eventually('two workers', async () => {
        const found = workerPids(s.dataDir);
        return found.length === 2 && found;
      });
      for (const pid of pids) {
        const args = execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' });
        assert.match(args, /--max-semi-space-size=32 /, args);
      }
    });

    it('a watch on one worker sees the writes made through the other, in order', async () => {
      const c = s.client;
      const ns = 'watched';
      await createNamespace(c, ns);
      const path = `/api/v1/namespaces/${ns}/configmaps`;
      const list = await c.get(path);
      const watch = await c.watch(`${path}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`);
      try {
        const revisions: number[] = [];
        for (let i = 0; i < 10; i++) {
          const res = await c.request('POST', path, { headers: { Connection: 'close' }, body: { metadata: { name: `w-${i}` } } });
          assert.equal(res.status, 201, res.text);
          revisions.push(Number(res.body.metadata.resourceVersion));
        }
        for (const rv of revisions) {
          const e = await watch.next(10_000);
          assert.equal(e.type, 'ADDED');
          assert.equal(Number(e.object.metadata.resourceVersion), rv);
        }
      } finally {
        watch.close();
      }
    });

    it('a worker started in place of one that died serves only once its RBAC cache is synced: an authorized user never sees 403', async () => {
      const c = s.client;
      const ns = 'restarted';
      await createNamespace(c, ns);
      const grant = await c.post(`/apis/rbac.authorization.orch.io/v1/namespaces/${ns}/roles`, {
        metadata: { name: 'cm-reader' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }],
      });
      assert.equal(grant.status, 201, grant.text);
      const bind = await c.post(`/apis/rbac.authorization.orch.io/v1/namespaces/${ns}/rolebindings`, {
        metadata: { name: 'reader' },
        roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'cm-reader' },
        subjects: [{ apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: 'reader' }],
      });
      assert.equal(bind.status, 201, bind.text);
      const reader = newTestClient({ ...c.config, token: READER.token });
      const path = `/api/v1/namespaces/${ns}/configmaps`;
      // Both workers know the binding (each request a new connection, accepted by either worker: ten
      // of them all on one worker is a chance of one in 500).
      await eventually('both workers authorize the reader', async () => {
        for (let i = 0; i < 10; i++)
          if ((await reader.request('GET', path, { headers: { Connection: 'close' } })).status !== 200) return false;
        return true;
      });
      const before = workerPids(s.dataDir);
      assert.equal(before.length, 2, `two workers: ${before}`);
      const serving = () => s.logs().split('"msg":"serving securely"').length - 1;
      const served = serving();
      process.kill(before[0], 'SIGKILL');
      // Read as the reader, new connection by new connection, until the new worker has served a while.
      const statuses = new Map<number, number>();
      let restartedAt: number | undefined;
      const loops = Array.from({ length: 4 }, async () => {
        while (restartedAt === undefined || Date.now() - restartedAt < 2000) {
          // A request in flight when the worker died fails with it (a reset: workers-death.test.ts);
          // only answers count.
          let timer: NodeJS.Timeout | undefined;
          const stranded = new Promise<undefined>((r) => (timer = setTimeout(r, 5000, undefined)));
          const r = await Promise.race([
            reader.request('GET', path, { headers: { Connection: 'close' } }).catch(() => undefined),
            stranded,
          ]);
          clearTimeout(timer);
          if (r) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (restartedAt === undefined && serving() > served) restartedAt = Date.now();
        }
      });
      const deadline = setTimeout(() => (restartedAt ??= 0), 60_000);
      await Promise.all(loops);
      clearTimeout(deadline);
      assert.ok(restartedAt, `a new worker started: ${s.logs().slice(-2000)}`);
      const after = workerPids(s.dataDir);
      assert.equal(after.length, 2);
      assert.ok(!after.includes(before[0]));
      assert.deepEqual([...statuses.keys()], [200], `answers to the reader while a worker restarted: ${JSON.stringify([...statuses])}`);
      reader.close();
    });

    it('each worker keeps an identity lease; a worker started in place of one that died takes its slot’s lease back', async () => {
      const path = `/apis/coordination.orch.io/v1/namespaces/orch-system/leases?labelSelector=${encodeURIComponent('apiserver.orch.io/identity=orch-apiserver')}`;
      type Held = { metadata: { name: string }; spec: { holderIdentity: string } };
      const holders = async () => {
        const r = await s.client.get(path);
        assert.equal(r.status, 200, r.text);
        return new Map<string, string>(r.body.items.map((l: Held) => [l.metadata.name, l.spec.holderIdentity]));
      };
      const first = await eventually('two identity leases', async () => {
        const h = await holders();
        return h.size === 2 && h;
      });
      const serving = () => s.logs().split('"msg":"serving securely"').length - 1;
      const served = serving();
      const [victim] = workerPids(s.dataDir);
      process.kill(victim, 'SIGKILL');
      await eventually('a new worker serves', async () => serving() > served, 60_000);
      // The same two names; the one of the dead worker's slot now held by its successor.
      const next = await eventually('the successor renews its slot’s lease', async () => {
        const h = await holders();
        return h.size === 2 && [...h].filter(([name, holder]) => first.get(name) !== holder).length === 1 && h;
      });
      assert.deepEqual([...next.keys()].sort(), [...first.keys()].sort());
    });
  });
}
