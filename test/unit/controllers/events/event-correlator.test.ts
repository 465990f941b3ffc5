import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventCorrelator, type EventFacts } from '../../../../controllers/events/event-correlator.js';

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
  it('counts a repeat within 6 minutes in the first event’s series; later it is a new event', () => {
    let now = 1_000_000;
    const c = new EventCorrelator(() => now);
    assert.equal(c.correlate(facts()).do, 'create');
    const again = c.correlate(facts());
    assert.equal(again.do, 'series');
    assert.equal(again.do === 'series' && again.count, 2);
    now += 7 * 60_000;
    assert.equal(c.correlate(facts()).do, 'create');
  });

  it('aggregates similar events with more than 10 notes in 10 minutes into one', () => {
    let now = 0;
    const c = new EventCorrelator(() => now);
    for (let i = 0; i < 10; i++) {
      const r = c.correlate(facts({ note: `Created pod: web-${i}` }));
      assert.equal(r.do, 'create');
      now += 1000;
    }
    const eleventh = c.correlate(facts({ note: 'Created pod: web-10' }));
    assert.deepEqual(eleventh.do === 'create' && eleventh.note, '(combined from similar events): Created pod: web-10');
    const twelfth = c.correlate(facts({ note: 'Created pod: web-11' }));
    assert.equal(twelfth.do, 'series', 'the aggregate event counts the next similar ones');
    assert.equal(twelfth.do === 'series' && twelfth.note, '(combined from similar events): Created pod: web-11');
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
