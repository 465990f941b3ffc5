/**
 * Differences from Kubernetes that are known and explained (README, "Differences from Kubernetes"):
 * a step's difference is listed when a rule matches its script, its step (RegExps on the names), its
 * path and, when the rule has one, a check of the two values. Everything else the checker finds
 * counts as a difference to fix.
 */
import type { Difference } from './diff.js';

export interface ListedDifference {
  script: RegExp;
  step: RegExp;
  /** Difference paths this rule covers (RegExp on `Difference.path`). */
  path: RegExp;
  /** When set, the rule covers only differences whose values pass it. */
  when?: (d: Difference) => boolean;
  /** Why orch differs, as the README says it. */
  reason: string;
}

/** A Go zero value as encoding/json writes it for a field without omitempty: null, "", 0, false, {} or a struct of those. */
export function isGoZero(v: unknown): boolean {
  if (v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return false;
  if (typeof v === 'object') return Object.values(v as object).every(isGoZero);
  return false;
}

const ANY = /./;

export const LISTED: ListedDifference[] = [
  {
    script: ANY,
    step: ANY,
    path: ANY,
    when: (d) => (d.orch === undefined && isGoZero(d.reference)) || (Array.isArray(d.orch) && d.orch.length === 0 && d.reference == null),
    reason:
      'Go zero values: Kubernetes writes the zero value of fields without omitempty (`creationTimestamp: null`, `resources: {}`, `source: {}`, empty Node status structs) and nil lists as null; orch leaves unset fields out and keeps an empty list as sent',
  },
  {
    script: ANY,
    step: ANY,
    path: /(^|\.)managedFields(\.|$)/,
    reason:
      "managedFields bookkeeping: orch's field sets mark `.` on every map and list they own and track fields Kubernetes leaves to its zero-value encoding; objects created with no fields but a name start tracking on their first update in orch (Kubernetes: on the first apply, as `before-first-apply`)",
  },
  {
    script: ANY,
    step: ANY,
    path: /^body\.items\.\d+\.(apiVersion|kind)$/,
    when: (d) => d.reference === undefined,
    reason: "list items carry their apiVersion and kind in orch's lists; Kubernetes leaves them out of each item (clients read both)",
  },
];

/** The rule that explains a difference, if any. */
export function listedReason(script: string, step: string, d: Difference, rules: ListedDifference[] = LISTED): string | undefined {
  return rules.find((r) => r.script.test(script) && r.step.test(step) && r.path.test(d.path) && (!r.when || r.when(d)))?.reason;
}
