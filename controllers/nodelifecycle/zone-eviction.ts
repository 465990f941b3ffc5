/**
 * Rate-limited NoExecute tainting per zone (the node lifecycle controller's zoneNoExecuteTainter and
 * handleDisruption). Nodes are grouped by their topology region and zone labels; a zone whose
 * not-ready share reaches --unhealthy-zone-threshold (with more than two not ready) is partially
 * disrupted and taints at --secondary-node-eviction-rate when it has more than
 * --large-cluster-size-threshold Nodes, else not at all; a zone with no ready Node is fully disrupted
 * and taints at --node-eviction-rate unless every zone is, when tainting stops and the NoExecute
 * taints come off ("master disruption mode"). Otherwise Nodes are tainted at --node-eviction-rate.
 */
import type { Node } from '../../apiserver/api/generated/types.js';

export interface EvictionRates {
  /** --node-eviction-rate: Nodes per second in a healthy zone (0.1). */
  evictionRate: number;
  /** --secondary-node-eviction-rate: Nodes per second in a large unhealthy zone (0.01). */
  secondaryEvictionRate: number;
  /** --unhealthy-zone-threshold: the not-ready share that makes a zone unhealthy (0.55). */
  unhealthyZoneThreshold: number;
  /** --large-cluster-size-threshold: above this many Nodes a zone keeps evicting when unhealthy (50). */
  largeClusterSizeThreshold: number;
}

export const DEFAULT_EVICTION_RATES: EvictionRates = {
  evictionRate: 0.1,
  secondaryEvictionRate: 0.01,
  unhealthyZoneThreshold: 0.55,
  largeClusterSizeThreshold: 50,
};

export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

/** GetZoneKey: region and zone from the topology labels (their beta names as fallback). */
export function zoneKey(node: Node, labelPrefix: string): string {
  const labels = node.metadata.labels ?? {};
  const region = labels[`topology.${labelPrefix}/region`] ?? labels[`failure-domain.beta.${labelPrefix}/region`] ?? '';
  const zone = labels[`topology.${labelPrefix}/zone`] ?? labels[`failure-domain.beta.${labelPrefix}/zone`] ?? '';
  return region === '' && zone === '' ? '' : `${region}:\u0000:${zone}`;
}

/** ComputeZoneState from the Ready statuses of a zone's Nodes. */
export function computeZoneState(readyStatuses: (string | undefined)[], unhealthyZoneThreshold: number): ZoneState {
  const ready = readyStatuses.filter((s) => s === 'True').length;
  const notReady = readyStatuses.length - ready;
  if (ready === 0 && notReady > 0) return 'FullDisruption';
  if (notReady > 2 && notReady / (notReady + ready) >= unhealthyZoneThreshold) return 'PartialDisruption';
  return 'Normal';
}

/** A token bucket with a burst of one (flowcontrol.NewTokenBucketRateLimiter(qps, 1)). */
class TokenBucket {
  private tokens = 1;
  private last: number | undefined;

  constructor(private qps: number) {}

  /** True (and a token spent) when one is available at `now`. */
  tryAccept(now: number): boolean {
    if (this.qps <= 0) return false;
    if (this.last !== undefined) this.tokens = Math.min(1, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  get rate(): number {
    return this.qps;
  }
}

/** One zone's queue of Nodes waiting for their NoExecute taint (RateLimitedTimedQueue). */
export class ZoneTainter {
  private readonly queue: string[] = [];
  private limiter: TokenBucket;

  constructor(qps: number) {
    this.limiter = new TokenBucket(qps);
  }

  /** SwapLimiter: a new rate; a full bucket unless the rate is unchanged. */
  swapLimiter(qps: number): void {
    if (this.limiter.rate !== qps) this.limiter = new TokenBucket(qps);
  }

  add(node: string): void {
    if (!this.queue.includes(node)) this.queue.push(node);
  }

  remove(node: string): void {
    const i = this.queue.indexOf(node);
    if (i >= 0) this.queue.splice(i, 1);
  }

  has(node: string): boolean {
    return this.queue.includes(node);
  }

  /** The Nodes whose turn has come, in the order they were queued, as far as tokens allow. */
  take(now: number): string[] {
    const out: string[] = [];
    while (this.queue.length && this.limiter.tryAccept(now)) out.push(this.queue.shift()!);
    return out;
  }
}

/** The zones' states and tainters (handleDisruption's bookkeeping). */
export class ZoneEviction {
  readonly states = new Map<string, ZoneState>();
  readonly tainters = new Map<string, ZoneTainter>();

  constructor(readonly rates: EvictionRates) {}

  tainter(zone: string): ZoneTainter {
    let t = this.tainters.get(zone);
    if (!t) {
      t = new ZoneTainter(this.rates.evictionRate);
      this.tainters.set(zone, t);
      this.states.set(zone, 'Initial');
    }
    return t;
  }

  private rateFor(state: ZoneState, size: number): number {
    if (state === 'PartialDisruption') return size > this.rates.largeClusterSizeThreshold ? this.rates.secondaryEvictionRate : 0;
    return this.rates.evictionRate;
  }

  /**
   * Updates each zone's state and rate from its Nodes' Ready statuses. Returns 'enter' when every
   * zone has just become fully disrupted (the caller lifts the NoExecute taints), 'exit' when that
   * ends (the caller resets the Nodes' probe times), else undefined.
   */
  update(zones: Map<string, (string | undefined)[]>): 'enter' | 'exit' | undefined {
    const next = new Map<string, ZoneState>();
    for (const [zone, statuses] of zones) {
      this.tainter(zone);
      next.set(zone, computeZoneState(statuses, this.rates.unhealthyZoneThreshold));
    }
    for (const zone of [...this.states.keys()]) {
      if (zones.has(zone)) continue;
      this.states.delete(zone);
      this.tainters.delete(zone);
    }
    const allAre = [...next.values()].every((s) => s === 'FullDisruption');
    const allWere = [...this.states.values()].every((s) => s === 'FullDisruption');
    if (allAre && allWere) return undefined;
    if (allAre) {
      for (const [zone, tainter] of this.tainters) {
        tainter.swapLimiter(0);
        this.states.set(zone, 'FullDisruption');
      }
      return 'enter';
    }
    for (const [zone, state] of next) {
      if (allWere || this.states.get(zone) !== state) this.tainters.get(zone)!.swapLimiter(this.rateFor(state, zones.get(zone)!.length));
      this.states.set(zone, state);
    }
    return allWere ? 'exit' : undefined;
  }
}
