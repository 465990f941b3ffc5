/**
 * How the server's seats are shared among priority levels (Kubernetes' apf_controller.go and
 * conc_alloc.go): each level's nominal seats are ceil(server seats × its shares / all shares); it may
 * lend `lendablePercent` of them and borrow up to `borrowingLimitPercent` of them more (no limit when
 * unset). Every adjustment period the levels' current seats are set from their recent seat demand:
 * each gets a fair fraction of its target, bounded below by what it keeps (and the demand it had, up
 * to its nominal seats) and above by what it may borrow, the whole summing to the nominal total.
 */
import type { PriorityLevelConfigurationSpec } from '../../api/generated/types.js';

export interface LevelLimits {
  nominalCL: number;
  /** nominal − lendable: what the level always keeps. */
  minCL: number;
  /** nominal + borrowing limit. */
  maxCL: number;
  lendableCL: number;
}

export function sharesOf(spec: PriorityLevelConfigurationSpec): {
  shares: number;
  lendablePercent: number;
  borrowingLimitPercent?: number;
} {
  if (spec.type === 'Exempt')
    return { shares: spec.exempt?.nominalConcurrencyShares ?? 0, lendablePercent: spec.exempt?.lendablePercent ?? 0 };
  const l = spec.limited;
  return {
    shares: l?.nominalConcurrencyShares ?? 30,
    lendablePercent: l?.lendablePercent ?? 0,
    borrowingLimitPercent: l?.borrowingLimitPercent,
  };
}

export function levelLimits(serverCL: number, spec: PriorityLevelConfigurationSpec, shareSum: number): LevelLimits {
  const { shares, lendablePercent, borrowingLimitPercent } = sharesOf(spec);
  const nominalCL = shareSum > 0 ? Math.ceil((serverCL * shares) / shareSum) : 0;
  const lendableCL = Math.round((nominalCL * lendablePercent) / 100);
  const borrowingCL = borrowingLimitPercent === undefined ? serverCL : Math.round((nominalCL * borrowingLimitPercent) / 100);
  return { nominalCL, lendableCL, minCL: nominalCL - lendableCL, maxCL: nominalCL + borrowingCL };
}

export interface AllocationItem {
  lowerBound: number;
  upperBound: number;
  target: number;
}

/**
 * Allocations a_i = clamp(f × target_i, lower_i, upper_i) summing to `total`, for the fair fraction f
 * found by bisection; when the bounds cannot reach the total, every item is at the nearer bound.
 */
export function allocate(total: number, items: readonly AllocationItem[]): number[] {
  const at = (f: number) => items.map((it) => Math.min(it.upperBound, Math.max(it.lowerBound, f * it.target)));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  if (sum(at(0)) >= total) return at(0);
  let hi = 1;
  while (sum(at(hi)) < total && hi < 1e9) hi *= 2;
  if (sum(at(hi)) < total) return at(hi);
  let lo = 0;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (sum(at(mid)) < total) lo = mid;
    else hi = mid;
  }
  return at(hi);
}

/** What a level's seat demand was over the last period: its peak and its time average. */
export interface SeatDemand {
  highWatermark: number;
  average: number;
}

/** The level's allocation item for one adjustment (target: the smoothed demand, at least what it keeps). */
export function allocationItem(limits: LevelLimits, demand: SeatDemand): AllocationItem {
  const lowerBound = Math.max(limits.minCL, Math.min(limits.nominalCL, demand.highWatermark));
  return { lowerBound, upperBound: limits.maxCL, target: Math.max(lowerBound, demand.average) };
}
