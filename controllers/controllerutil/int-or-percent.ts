/** Kubernetes' IntOrString counts: a number, or a percentage of a total. */

/**
 * GetScaledValueFromIntOrPercent: `value` (or `fallback` when unset) as a count out of `total`,
 * percentages rounded up or down; anything else counts as 0.
 */
export function scaledValue(value: number | string | undefined, total: number, roundUp: boolean, fallback: number | string = 0): number {
  const v = value ?? fallback;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) return /^\d+$/.test(v) ? Number(v) : 0;
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}
