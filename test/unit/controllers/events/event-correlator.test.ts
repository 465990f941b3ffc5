import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AGGREGATE_INTERVAL_MS, EventCorrelator, type EventFacts } from '../../../../controllers/events/event-correlator.js';

const facts = (over: Partial<EventFacts> = {}): EventFacts => ({
  source: 'rs-controller',
  regarding: 'ReplicaSet/ns/web/uid',
  related: '',
  type: 'Normal',
  reason: 'SuccessfulCreate',
  action: 'Create',
  note: 'Created pod: web-1',
  ...over,
});

describe('event correlator', () => {
  it('counts a repeat in the first event, however late (record keeps no window, only its LRU cache)', () => {
    let now = 1_000_000;
    const c = new EventCorrelator(() => now);
    assert.equal(c.correlate(facts()).do, 'create');
    const again = c.correlate(facts());
    assert.equal(again.do, 'update');
    assert.equal(again.do === 'update' && again.count, 2);
    now += 60 * 60_000;
    const late = c.correlate(facts());
    assert.equal(late.do === 'update' && late.count, 3);
    c.forget(late.do === 'update' ? late.key : '');
    assert.equal(c.correlate(facts()).do, 'create', 'a forgotten event is written anew');
  });

  it('aggregates similar events once 10 notes arrive within 10 minutes', () => {
    let now = 0;
    const c = new EventCorrelator(() => now);
    for (let i = 0; i < 9; i++) {
      const r = c.correlate(facts({ note: `Created pod: web-${i}` }));
      assert.equal(r.do, 'create');
      now += 1000;
    }
    const tenth = c.correlate(facts({ note: 'Created pod: web-9' }));
    assert.deepEqual(tenth.do === 'create' && tenth.note, '(combined from similar events): Created pod: web-9');
    const eleventh = c.correlate(facts({ note: 'Created pod: web-10' }));
    assert.equal(eleventh.do, 'update', 'the aggregate event counts the next similar ones');
    assert.equal(eleventh.do === 'update' && eleventh.note, '(combined from similar events): Created pod: web-10');
    now += AGGREGATE_INTERVAL_MS + 1;
    assert.equal(c.correlate(facts({ note: 'Created pod: web-11' })).do, 'create');
  });

  it('lets a source write 25 events about one object, then one every 5 minutes', () => {
    let now = 0;
    const c = new EventCorrelator(() => now);
    let written = 0;
    for (let i = 0; i < 40; i++) if (c.correlate(facts({ reason: `R${i}` })).do !== 'drop') written++;
    assert.equal(written, 25);
    assert.equal(c.correlate(facts({ regarding: 'ReplicaSet/ns/other/uid' })).do, 'create', 'another object has its own budget');
    now += 300_000;
    assert.equal(c.correlate(facts({ reason: 'late' })).do, 'create');
    assert.equal(c.correlate(facts({ reason: 'later' })).do, 'drop');
  });
});
