import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { growthExponent, podName, stepLabel, WatchListCounter } from '../../../../scripts/bench/pods-scale-scenario.js';

describe('pods-150k helpers', () => {
  it('the growth exponent is the log-log slope between two steps', () => {
    assert.equal(growthExponent(10_000, 100, 150_000, 1500), 1);
    assert.equal(growthExponent(10_000, 100, 150_000, 100), 0);
    assert.equal(growthExponent(10_000, 10, 100_000, 1000), 2);
    assert.equal(growthExponent(10_000, 0, 150_000, 10), undefined, 'no slope from nothing');
  });

  it('names Pods as a ReplicaSet does: valid, never repeated, in no key order', () => {
    const names = Array.from({ length: 200_000 }, (_, i) => podName(i));
    assert.equal(new Set(names).size, names.length);
    for (const n of names.slice(0, 1000)) assert.match(n, /^web-6d4b75cb6d-[0-9a-z]{7}$/);
    const ascending = names.slice(1, 1001).filter((n, i) => n > names[i]).length;
    assert.ok(ascending > 300 && ascending < 700, `${ascending} of 1000 successive names ascend`);
  });

  it('labels steps as the report does', () => {
    assert.deepEqual([10_000, 150_000, 1500].map(stepLabel), ['10k', '150k', '1500']);
  });

  it('counts ADDED lines up to the end bookmark, across chunk boundaries anywhere, for either domain', () => {
    for (const domain of ['k8s.io', 'orch.io']) {
      const lines = [
        '{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"a"}}}',
        '{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"b"}}}',
        '{"type":"BOOKMARK","object":{"kind":"Pod","metadata":{"resourceVersion":"9"}}}',
        `{"type":"BOOKMARK","object":{"kind":"Pod","metadata":{"resourceVersion":"9","annotations":{"${domain}/initial-events-end":"true"}}}}`,
        '{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"late"}}}',
      ];
      const bytes = Buffer.from(`${lines.join('\n')}\n`);
      for (const size of [1, 3, 7, 19, 64, bytes.length]) {
        const c = new WatchListCounter();
        for (let i = 0; i < bytes.length; i += size) c.onData(bytes.subarray(i, i + size));
        assert.deepEqual([c.added, c.other, c.ended], [2, 1, true], `${domain}, chunks of ${size}`);
      }
    }
  });
});
