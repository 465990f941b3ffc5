import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatGoDuration, parseGoDuration } from '../../../../apiserver/component-base/flag/go-duration.js';

test('Go duration syntax', () => {
  assert.equal(parseGoDuration('0'), 0);
  assert.equal(parseGoDuration('500ms'), 500);
  assert.equal(parseGoDuration('1h30m'), 5_400_000);
  assert.equal(parseGoDuration('1.5s'), 1500);
  assert.equal(parseGoDuration('.5m'), 30_000);
  assert.equal(parseGoDuration('-2s'), -2000);
  assert.equal(parseGoDuration('1500us'), 1.5);
  assert.equal(parseGoDuration('2000000ns'), 2);
  assert.equal(parseGoDuration('1m0s'), 60_000);
  assert.throws(() => parseGoDuration(''), /time: invalid duration ""/);
  assert.throws(() => parseGoDuration('1.s5'), { message: 'time: missing unit in duration "1.s5"' });
});

test('Go duration printing, as Duration.String()', () => {
  const cases: [number, string][] = [
    [0, '0s'],
    [0.000_001, '1ns'],
    [0.0015, '1.5µs'],
    [1.5, '1.5ms'],
    [500, '500ms'],
    [1500, '1.5s'],
    [15_000, '15s'],
    [60_000, '1m0s'],
    [90_500, '1m30.5s'],
    [5 * 60_000, '5m0s'],
    [3_600_000, '1h0m0s'],
    [12 * 3_600_000, '12h0m0s'],
    [-2000, '-2s'],
  ];
  for (const [ms, text] of cases) {
    assert.equal(formatGoDuration(ms), text, String(ms));
    assert.equal(parseGoDuration(text), ms, text);
  }
});
