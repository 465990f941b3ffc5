import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RetryAfter } from '../../../../apiserver/server/flowcontrol/retry-after.js';

/** The rule as Kubernetes' dropped_requests_tracker states it, over a list of every drop time: the oracle. */
class ListedDrops {
  private value = 1;
  private updatedAt = 0;
  private readonly drops: number[] = [];
  constructor(private readonly now: () => number) {}
  dropped(): number {
    const now = this.now();
    this.drops.push(now);
    const recent = this.drops.filter((d) => now - d <= this.value).length;
    if (now - this.updatedAt >= this.value && recent >= 3 * this.value) {
      this.value = Math.min(60, this.value * 2);
      this.updatedAt = now;
    } else if (recent < this.value && this.value > 1) {
      this.value--;
    }
    return this.value;
  }
}

test('Retry-After doubles under drops, up to 60 s, and comes down by one when they stop', () => {
  let now = 1000;
  const r = new RetryAfter(() => now);
  assert.equal(r.dropped(), 1);
  assert.equal(r.dropped(), 1);
  assert.equal(r.dropped(), 2, 'three drops within a second double it');
  for (let i = 0; i < 20_000; i++) {
    if (i % 200 === 0) now++;
    r.dropped();
  }
  assert.equal(r.dropped(), 60);
  now += 120;
  assert.equal(r.dropped(), 59, 'one drop in a quiet minute lowers it by one');
});

test('Retry-After counted per second agrees with the listed drops on random floods', () => {
  for (let seed = 1; seed <= 20; seed++) {
    let x = seed;
    const rand = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let now = 5000;
    const fast = new RetryAfter(() => now);
    const listed = new ListedDrops(() => now);
    for (let i = 0; i < 3000; i++) {
      const r = rand();
      if (r < 0.02) now += Math.floor(rand() * 130);
      else if (r < 0.2) now += 1;
      assert.equal(fast.dropped(), listed.dropped(), `seed ${seed}, drop ${i}, at ${now}`);
    }
  }
});
