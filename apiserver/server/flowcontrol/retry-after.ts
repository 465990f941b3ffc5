/**
 * The Retry-After a level's rejections carry (Kubernetes' dropped_requests_tracker.go): 1 s at
 * first; doubled (up to 60 s) when the level dropped at least 3 × retryAfter requests within the
 * last retryAfter seconds and it has not changed for that long; lowered by 1 when it dropped fewer
 * than retryAfter.
 *
 * Drops are counted per second, in a ring of the last MAX_RETRY_AFTER + 1 seconds: a rejection costs
 * the same at 3,000 a second as at one (a list of drop times was walked and shifted on every
 * rejection, O(drops in the window): at 60 s and a flood's 3,000/s, 180,000 entries each time).
 */
const MAX_RETRY_AFTER = 60;
const SECONDS = MAX_RETRY_AFTER + 1;

export class RetryAfter {
  private value = 1;
  private updatedAt = 0;
  /** Drops in second `stamps[i]`, at index stamps[i] % SECONDS. */
  private readonly counts = new Array<number>(SECONDS).fill(0);
  private readonly stamps = new Array<number>(SECONDS).fill(-1);

  constructor(private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000)) {}

  /** Notes a rejection; returns the Retry-After to send with it. */
  dropped(): number {
    const now = this.nowSeconds();
    const slot = now % SECONDS;
    if (this.stamps[slot] !== now) {
      this.stamps[slot] = now;
      this.counts[slot] = 0;
    }
    this.counts[slot]++;
    // Drops within the last `value` seconds, this one's second included.
    let recent = 0;
    for (let s = now - this.value; s <= now; s++) {
      const i = ((s % SECONDS) + SECONDS) % SECONDS;
      if (this.stamps[i] === s) recent += this.counts[i];
    }
    if (now - this.updatedAt >= this.value && recent >= 3 * this.value) {
      this.value = Math.min(MAX_RETRY_AFTER, this.value * 2);
      this.updatedAt = now;
    } else if (recent < this.value && this.value > 1) {
      this.value--;
    }
    return this.value;
  }
}
