import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { LeaderElector, validateLeaderElectionTiming } from '../../../../controllers/leaderelection/leader-elector.js';
import { microTime, type LeaderElectionRecord, type ResourceLock } from '../../../../controllers/leaderelection/lease-lock.js';

/** One shared lease with compare-and-swap, as the API server's resourceVersion gives. */
class FakeLease {
  record: LeaderElectionRecord | null = null;
  version = 0;
  /** While true, every call fails (the API server is unreachable). */
  down = false;
  writes: string[] = [];

  lock(identity: string): ResourceLock {
    let readVersion = -1;
    const check = () => {
      if (this.down) throw new Error('connection refused');
    };
    return {
      identity,
      get: async () => {
        check();
        readVersion = this.version;
        return this.record && { ...this.record };
      },
      create: async (r) => {
        check();
        if (this.record) throw new Error('AlreadyExists');
        this.record = { ...r };
        readVersion = ++this.version;
        this.writes.push(`${identity}: create`);
      },
      update: async (r) => {
        check();
        if (readVersion !== this.version) throw new Error('Conflict');
        this.record = { ...r };
        readVersion = ++this.version;
        this.writes.push(`${identity}: ${r.holderIdentity || 'release'}`);
      },
      describe: () => 'orch-system/test',
    };
  }
}

// Lease durations are whole seconds in the record, so the lease here is 1s.
const timing = { leaseDurationMs: 1000, renewDeadlineMs: 600, retryPeriodMs: 100 };
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every candidate started by a test, stopped after it whatever happened. */
const running: AbortController[] = [];

function candidate(lease: FakeLease, identity: string, releaseOnCancel = false) {
  const events: string[] = [];
  const stop = new AbortController();
  running.push(stop);
  const elector = new LeaderElector({
    lock: lease.lock(identity),
    ...timing,
    releaseOnCancel,
    callbacks: {
      onStartedLeading: () => events.push('started'),
      onStoppedLeading: () => events.push('stopped'),
      onNewLeader: (id) => events.push(`leader ${id}`),
    },
  });
  const done = elector.run(stop.signal);
  return { elector, events, stop, done };
}

async function until(cond: () => boolean, ms = 3000): Promise<number> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > ms) throw new Error('condition not met in time');
    await tick(5);
  }
  return Date.now() - start;
}

describe('leader election', () => {
  afterEach(() => running.splice(0).forEach((c) => c.abort()));

  it('checks the timing flags like client-go', () => {
    assert.throws(
      () => validateLeaderElectionTiming({ leaseDurationMs: 10, renewDeadlineMs: 10, retryPeriodMs: 1 }),
      /leaseDuration must be greater than renewDeadline/,
    );
    assert.throws(
      () => validateLeaderElectionTiming({ leaseDurationMs: 15, renewDeadlineMs: 10, retryPeriodMs: 9 }),
      /renewDeadline must be greater than retryPeriod\*JitterFactor/,
    );
    assert.doesNotThrow(() => validateLeaderElectionTiming({ leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 }));
  });

  it('formats MicroTime with microseconds', () => {
    assert.equal(microTime(Date.parse('2024-05-06T07:08:09.123Z')), '2024-05-06T07:08:09.123000Z');
  });

  it('one candidate leads; the other waits and renewals keep it out', async () => {
    const lease = new FakeLease();
    const a = candidate(lease, 'a');
    await until(() => a.elector.isLeader());
    const b = candidate(lease, 'b');
    await tick(timing.leaseDurationMs * 2);
    assert.equal(b.elector.isLeader(), false);
    assert.deepEqual(b.events, ['leader a']);
    assert.equal(lease.record?.holderIdentity, 'a');
    assert.equal(lease.record?.leaderTransitions, 0);
    assert.ok(lease.writes.filter((w) => w === 'a: a').length >= 3, 'the leader renews every retry period');
    a.stop.abort();
    b.stop.abort();
    await Promise.all([a.done, b.done]);
  });

  it('a standby takes over within the lease duration after the leader stops renewing', async () => {
    const lease = new FakeLease();
    const a = candidate(lease, 'a');
    await until(() => a.elector.isLeader());
    const b = candidate(lease, 'b');
    await tick(100);
    a.stop.abort(); // a dies without releasing
    await a.done;
    const lastRenewal = lease.record!.renewTime;
    await until(() => b.elector.isLeader());
    const takeover = Date.now() - lastRenewal;
    assert.ok(takeover >= timing.leaseDurationMs, `took over after ${takeover}ms, before the lease expired`);
    assert.ok(takeover <= timing.leaseDurationMs + 3 * timing.retryPeriodMs, `took over after ${takeover}ms`);
    assert.equal(lease.record?.leaderTransitions, 1);
    assert.deepEqual(b.events, ['leader a', 'leader b', 'started']);
    b.stop.abort();
    await b.done;
  });

  it('a leader that cannot renew within the deadline stops leading', async () => {
    const lease = new FakeLease();
    const a = candidate(lease, 'a');
    await until(() => a.elector.isLeader());
    lease.down = true;
    const waited = await until(() => a.events.includes('stopped'));
    assert.ok(waited <= timing.renewDeadlineMs + 3 * timing.retryPeriodMs, `stopped after ${waited}ms`);
    await a.done;
    assert.deepEqual(a.events, ['leader a', 'started', 'stopped']);
  });

  it('releaseOnCancel clears the holder so a standby need not wait for expiry', async () => {
    const lease = new FakeLease();
    const a = candidate(lease, 'a', true);
    await until(() => a.elector.isLeader());
    const b = candidate(lease, 'b');
    await tick(60);
    a.stop.abort();
    await a.done;
    assert.equal(lease.record?.holderIdentity, '');
    const waited = await until(() => b.elector.isLeader());
    assert.ok(waited < timing.leaseDurationMs, `took over after ${waited}ms`);
    b.stop.abort();
    await b.done;
  });
});
