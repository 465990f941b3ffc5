/**
 * Holding back the 429s of a flow that ignores Retry-After. A client that honours it waits that long
 * before it asks again; one that comes straight back (a flood, or a client with no backoff) is
 * rejected as fast as it asks, and on one event loop each rejection (TLS, parsing, authentication,
 * classification, the answer) costs what a protected level's request costs: a flooder bouncing off
 * a full queue from a hundred connections took ~40% of the loop, and every other level's latency
 * with it.
 *
 * So a flow's first rejection is answered at once; a rejection of the same flow within the
 * Retry-After it was last given is answered after the Retry-After it carries, counted from its own
 * arrival (arrivals are spread, so the held answers go out spread too), at most MAX_HOLD_MS. The
 * answer is the same 429 with the same headers; only its time differs. A client that honours
 * Retry-After is never held; a caller's concurrent requests rejected together wait at most one
 * Retry-After more. What a hold keeps is a timer and the open request, at most MAX_HELD at once
 * (beyond that, answered at once), and nothing of the queues or seats.
 */

/** Held rejections at most at once, per process. */
export const MAX_HELD = 4096;
/**
 * The longest hold, whatever the Retry-After (up to 60 s): a held answer is a request in flight,
 * which a shutdown waits for, and a client's own timeout may be shorter.
 */
export const MAX_HOLD_MS = 5000;
/** Flows remembered at most (the oldest forgotten first). */
const MAX_FLOWS = 10_000;

export class RejectHold {
  /** Per flow: when its latest rejection's Retry-After window ends (ms). */
  private readonly windows = new Map<string, number>();
  private heldNow = 0;

  constructor(
    private readonly maxHeld = MAX_HELD,
    private readonly now: () => number = Date.now,
  ) {}

  /** Rejections being held now. */
  get held(): number {
    return this.heldNow;
  }

  /**
   * How long to hold this rejection of `flow`, given the Retry-After (seconds) it carries: 0 to
   * answer at once. A non-zero answer counts as held until release() is called.
   */
  delayFor(flow: string, retryAfterSeconds: number): number {
    const now = this.now();
    const windowEnd = this.windows.get(flow);
    const ms = retryAfterSeconds * 1000;
    const again = windowEnd !== undefined && now < windowEnd;
    // Refreshed in insertion order, so the first entry is the flow rejected longest ago.
    this.windows.delete(flow);
    this.windows.set(flow, now + ms);
    if (this.windows.size > MAX_FLOWS) this.windows.delete(this.windows.keys().next().value as string);
    if (!again || this.heldNow >= this.maxHeld) return 0;
    this.heldNow++;
    return Math.min(ms, MAX_HOLD_MS);
  }

  /** A held rejection was answered, or its client went away. */
  release(): void {
    this.heldNow--;
  }
}
