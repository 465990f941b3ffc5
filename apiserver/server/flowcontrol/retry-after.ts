/**
 * The Retry-After a level's rejections carry (Kubernetes' dropped_requests_tracker.go): 1 s at
 * first; doubled (up to 60 s) when the level dropped at least 3 × retryAfter requests within the
 * last retryAfter seconds and it has not changed for that long; lowered by 1 when it dropped fewer
 * than retryAfter.
 */
const MAX_RETRY_AFTER = 60;

export class RetryAfter {
  private value = 1;
  private updatedAt = 0;
  /** Drop times (seconds), the last 2 × value seconds. */
  private readonly drops: number[] = [];

  constructor(private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000)) {}

  /** Notes a rejection; returns the Retry-After to send with it. */
  dropped(): number {
    const now = this.nowSeconds();
    this.drops.push(now);
    while (this.drops.length > 0 && now - this.drops[0] > 2 * this.value) this.drops.shift();
    let recent = 0;
    for (let i = this.drops.length - 1; i >= 0 && now - this.drops[i] <= this.value; i--) recent++;
    if (now - this.updatedAt >= this.value && recent >= 3 * this.value) {
      this.value = Math.min(MAX_RETRY_AFTER, this.value * 2);
      this.updatedAt = now;
    } else if (recent < this.value && this.value > 1) {
      this.value--;
    }
    return this.value;
  }
}
