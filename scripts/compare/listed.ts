/**
 * Differences from Kubernetes that are known and explained (README, "Differences from Kubernetes"):
 * a step's difference is listed when a rule names its script, its step (a RegExp on the id) and a
 * path prefix. Everything else the checker finds counts as a difference to fix.
 */
import type { Difference } from './diff.js';

export interface ListedDifference {
  script: RegExp;
  step: RegExp;
  /** Difference paths this rule covers (RegExp on `Difference.path`). */
  path: RegExp;
  /** Why orch differs, as the README says it. */
  reason: string;
}

export const LISTED: ListedDifference[] = [];

/** The rule that explains a difference, if any. */
export function listedReason(script: string, step: string, d: Difference, rules: ListedDifference[] = LISTED): string | undefined {
  return rules.find((r) => r.script.test(script) && r.step.test(step) && r.path.test(d.path))?.reason;
}
