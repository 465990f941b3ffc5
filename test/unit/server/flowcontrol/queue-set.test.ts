import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueueSet, type Ticket } from '../../../../apiserver/server/flowcontrol/queue-set.js';
import { dealHand, hashFlow } from '../../../../apiserver/server/flowcontrol/shuffle-shard.js';

let now = 0;
const clock = () => now;
const ticket = (distinguisher: string, seats = 1, started: Ticket[] = []): Ticket => {
  const t: Ticket = { seats, flowSchema: 'fs', distinguisher, arrivedAt: now, queueIndex: -1, onStart: () => started.push(t) };
  return t;
};
const hash = (d: string) => () => hashFlow('fs', d);

test('a Reject level runs what fits and rejects the rest; a request wider than the limit runs alone', () => {
  const qs = new QueueSet(false, undefined, 2, clock);
  const [a, b, c] = [ticket('u'), ticket('u'), ticket('u')];
  assert.equal(qs.admit(a, hash('u')).outcome, 'execute');
  assert.equal(qs.admit(b, hash('u')).outcome, 'execute');
  assert.deepEqual(qs.admit(c, hash('u')), { outcome: 'reject', reason: 'concurrency-limit' });
  qs.finish(a);
  qs.finish(b);
  const wide = ticket('u', 5);
  assert.equal(qs.admit(wide, hash('u')).outcome, 'execute');
  assert.equal(qs.admit(ticket('u'), hash('u')).outcome, 'reject');
  assert.deepEqual(qs.counters, { dispatched: 3, rejected: 2, timedOut: 0, cancelled: 0 });
});

test('a Queue level queues, rejects a full queue, dispatches on finish and withdraws a timed-out wait', () => {
  const started: Ticket[] = [];
  const qs = new QueueSet(false, { queues: 1, handSize: 1, queueLengthLimit: 2 }, 1, clock);
  const running = ticket('u', 1, started);
  assert.equal(qs.admit(running, hash('u')).outcome, 'execute');
  const [w1, w2, w3] = [ticket('u', 1, started), ticket('u', 1, started), ticket('u', 1, started)];
  assert.equal(qs.admit(w1, hash('u')).outcome, 'queued');
  assert.equal(qs.admit(w2, hash('u')).outcome, 'queued');
  assert.deepEqual(qs.admit(w3, hash('u')), { outcome: 'reject', reason: 'queue-full' });
  assert.ok(qs.withdraw(w2, 'time-out'));
  assert.ok(!qs.withdraw(w2, 'time-out'), 'withdrawn once');
  qs.finish(running);
  assert.deepEqual(started, [w1]);
  assert.equal(qs.waiting, 0);
  assert.deepEqual(qs.counters, { dispatched: 2, rejected: 2, timedOut: 1, cancelled: 0 });
});

test('fair queuing: a light flow is served next to a flow that fills its queues with wide requests', () => {
  const started: Ticket[] = [];
  const qs = new QueueSet(false, { queues: 64, handSize: 6, queueLengthLimit: 50 }, 37, clock);
  const running: Ticket[] = [];
  const flood = () => {
    for (;;) {
      const t = ticket('flooder', 8, running);
      const a = qs.admit(t, hash('flooder'));
      if (a.outcome === 'execute') running.push(t);
      if (a.outcome === 'reject') return;
    }
  };
  flood();
  assert.equal(qs.waiting, 6 * 50);
  // Many flood requests end (each after 500 ms), then the light flow arrives: it runs at once (a seat is free).
  for (let i = 0; i < 200; i++) {
    now += 500;
    qs.finish(running.shift()!);
    flood();
  }
  for (let i = 0; i < 5; i++) {
    const light = ticket('tenant', 1, started);
    const a = qs.admit(light, hash('tenant'));
    let finishes = 0;
    while (a.outcome === 'queued' && !started.includes(light)) {
      now += 500;
      qs.finish(running.shift()!);
      flood();
      finishes++;
    }
    assert.ok(finishes <= 1, `the light request waited for ${finishes} flood requests`);
    now += 5;
    qs.finish(light);
  }
});

test('an exempt level admits everything', () => {
  const qs = new QueueSet(true, undefined, 0, clock);
  for (let i = 0; i < 100; i++) assert.equal(qs.admit(ticket('u'), hash('u')).outcome, 'execute');
  assert.equal(qs.executing, 100);
});

test('seat demand: the peak and the time average since the last take', () => {
  now = 0;
  const qs = new QueueSet(false, undefined, 10, clock);
  const a = ticket('u', 4);
  qs.admit(a, hash('u'));
  now = 1000;
  qs.finish(a);
  now = 2000;
  assert.deepEqual(qs.takeDemand(), { highWatermark: 4, average: 2 });
});

test("shuffle sharding deals distinct cards from a flow's hash, as Kubernetes' dealer", () => {
  for (const d of ['a', 'b', 'tenant', 'flooder']) {
    const hand = dealHand(hashFlow('global-default', d), 128, 6);
    assert.equal(new Set(hand).size, 6);
    assert.ok(hand.every((c) => c >= 0 && c < 128));
    assert.deepEqual(dealHand(hashFlow('global-default', d), 128, 6), hand, 'the same flow gets the same hand');
  }
  // Remainders 3, 2, 1 of 7, 6, 5: the cards skip those dealt before.
  const h = BigInt(3 + 7 * (2 + 6 * 1));
  assert.deepEqual(dealHand(h, 7, 3), [3, 2, 1]);
});

test('wide requests hold at most the wide limit together; a narrow request passes a wide head held back by it', () => {
  const started: Ticket[] = [];
  // 100 seats now (borrowed), 16 nominal: two LISTs of 8 seats run, a third waits.
  const qs = new QueueSet(false, { queues: 64, handSize: 6, queueLengthLimit: 50 }, 100, clock, 16);
  const lists = [ticket('flooder', 8, started), ticket('flooder', 8, started), ticket('flooder', 8, started)];
  assert.equal(qs.admit(lists[0], hash('flooder')).outcome, 'execute');
  assert.equal(qs.admit(lists[1], hash('flooder')).outcome, 'execute');
  assert.equal(qs.admit(lists[2], hash('flooder')).outcome, 'queued');
  assert.equal(qs.wideSeatsInUse, 16);
  // The tenant's GET does not wait behind the held-back LIST: borrowed seats serve it.
  const get = ticket('tenant', 1, started);
  assert.equal(qs.admit(get, hash('tenant')).outcome, 'execute');
  qs.finish(get);
  assert.deepEqual(started, []);
  // A LIST's end lets the waiting one run.
  now += 1000;
  qs.finish(lists[0]);
  assert.deepEqual(started, [lists[2]]);
  assert.equal(qs.wideSeatsInUse, 16);
});

test('wide requests leave the last seat of a level that does not borrow to one-seat requests', () => {
  const started: Ticket[] = [];
  // 16 seats, all nominal: two LISTs of 8 would take them all; the second waits, a GET finds a seat.
  const qs = new QueueSet(false, { queues: 64, handSize: 6, queueLengthLimit: 50 }, 16, clock, 16);
  const lists = [ticket('flooder', 8, started), ticket('flooder', 8, started)];
  assert.equal(qs.admit(lists[0], hash('flooder')).outcome, 'execute');
  assert.equal(qs.admit(lists[1], hash('flooder')).outcome, 'queued');
  const get = ticket('tenant', 1, started);
  assert.equal(qs.admit(get, hash('tenant')).outcome, 'execute');
  qs.finish(get);
  assert.deepEqual(started, []);
  // Alone, a LIST wider than the whole level still runs.
  now += 1000;
  qs.finish(lists[0]);
  assert.deepEqual(started, [lists[1]]);
  const widest = ticket('flooder', 20, started);
  assert.equal(qs.admit(widest, hash('flooder')).outcome, 'queued');
  qs.finish(lists[1]);
  assert.deepEqual(started, [lists[1], widest]);
});
