/**
 * --workers=2: a worker that dies takes its connections with it. A client whose request was in flight
 * on it, or whose connection was being handed to it, sees an error (a reset, the connection closed)
 * within moments, never a hang; the server keeps serving and the supervisor starts a new worker.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Agent, request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../support/api-server.js';
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

/** How long a client may wait for its answer or its error once the worker is dead. */
const BOUND_MS = 10_000;

type Outcome = 'answer' | 'error' | 'hang';

describe('--workers=2: a worker killed with requests in flight', () => {
  let s: TestServer;
  let stopped: number | undefined;
  before(async () => {
    s = await startTestServer({ process: true, args: ['--workers=2'] });
    await eventually('both workers serve', async () => s.logs().includes('"msg":"workers serving"'));
  });
  after(async () => {
    if (stopped !== undefined) {
      try {
        process.kill(stopped, 'SIGKILL');
      } catch {}
    }
    await s?.stop();
  });

  it('ends their connections (each client sees an answer or an error, never a hang) and the server keeps serving', async () => {
    const pids = workerPids(s.dataDir);
    const serving = () => s.logs().split('"msg":"serving securely"').length - 1;
    const served = serving();
    assert.equal(pids.length, 2, `two workers: ${pids}`);
    const agents: Agent[] = [];
    /** One GET on a connection of its own (an agent of one socket), settled within BOUND_MS of `deadAt`. */
    const get = (agent: Agent, deadAt: Promise<number>) =>
      new Promise<Outcome>((resolve) => {
        const req = request(`${s.url}/api/v1/namespaces`, { agent, headers: { Authorization: `Bearer ${s.token}` } }, (res) => {
          res.resume();
          res.on('end', () => resolve('answer'));
          res.on('error', () => resolve('error'));
        });
        req.on('error', () => resolve('error'));
        req.end();
        deadAt.then(() =>
          setTimeout(() => {
            resolve('hang');
            req.destroy();
          }, BOUND_MS).unref(),
        );
      });
    const newAgent = () => {
      const agent = new Agent({ ca: s.ca, keepAlive: true, maxSockets: 1 });
      agents.push(agent);
      return agent;
    };
    let killed!: (at: number) => void;
    const deadAt = new Promise<number>((r) => (killed = r));
    try {
      // Connections open on both workers (each answered once).
      const open = Array.from({ length: 6 }, newAgent);
      const warm = await Promise.all(open.map((a) => get(a, new Promise(() => {}))));
      assert.deepEqual(warm, Array(6).fill('answer'));
      // One worker stops reading: requests on its connections and new connections handed to it wait.
      stopped = pids[0];
      process.kill(stopped, 'SIGSTOP');
      const pending: Promise<Outcome>[] = [];
      for (const a of open) pending.push(get(a, deadAt));
      for (let i = 0; i < 6; i++) {
        pending.push(get(newAgent(), deadAt));
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, 500));
      process.kill(stopped, 'SIGKILL');
      killed(Date.now());
      const outcomes = await Promise.all(pending);
      const tally = Object.fromEntries((['answer', 'error', 'hang'] as const).map((o) => [o, outcomes.filter((x) => x === o).length]));
      assert.equal(tally.hang, 0, `every client sees an answer or an error within ${BOUND_MS} ms: ${JSON.stringify(tally)}`);
      stopped = undefined;

      // The server keeps serving, and a new worker takes the dead one's place.
      const after = await eventually('a new worker', async () => {
        const found = workerPids(s.dataDir);
        return found.length === 2 && !found.includes(pids[0]) && found;
      });
      assert.equal(after.length, 2);
      await eventually('the new worker serves', async () => serving() > served, 60_000);
      for (let i = 0; i < 6; i++) assert.equal(await get(newAgent(), Promise.resolve(Date.now())), 'answer');
    } finally {
      for (const a of agents) a.destroy();
    }
  });
});
