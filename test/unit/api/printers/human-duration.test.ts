import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { humanDuration, translateTimestampSince } from '../../../../apiserver/api/printers/human-duration.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration', () => {
  it('prints ages the way kubectl does', () => {
    const cases: [number, string][] = [
      [-2 * s, '<invalid>'],
      [-1 * s, '0s'],
      [0, '0s'],
      [119 * s, '119s'],
      [2 * m, '2m'],
      [3 * m + 20 * s, '3m20s'],
      [10 * m + 30 * s, '10m'],
      [179 * m, '179m'],
      [3 * h, '3h'],
      [5 * h + 7 * m, '5h7m'],
      [8 * h, '8h'],
      [47 * h, '47h'],
      [2 * d, '2d'],
      [3 * d + 4 * h, '3d4h'],
      [8 * d, '8d'],
      [729 * d, '729d'],
      [730 * d, '2y'],
      [2 * 365 * d + 20 * d, '2y20d'],
      [9 * 365 * d, '9y'],
    ];
    for (const [ms, want] of cases) assert.equal(humanDuration(ms), want, `${ms}ms`);
  });

  it('translates timestamps and absent ones', () => {
    const now = new Date('2026-01-01T00:10:00Z');
    assert.equal(translateTimestampSince('2026-01-01T00:00:00Z', now), '10m');
    assert.equal(translateTimestampSince(undefined, now), '<unknown>');
  });
});
