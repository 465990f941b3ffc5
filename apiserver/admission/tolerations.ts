/** Toleration sets as Kubernetes' pkg/util/tolerations: superset, merge without redundancy, whitelist check. */
import type { Toleration } from './pods.js';

const same = (x: Toleration, y: Toleration) =>
  (x.key ?? '') === (y.key ?? '') &&
  (x.operator ?? '') === (y.operator ?? '') &&
  (x.value ?? '') === (y.value ?? '') &&
  (x.effect ?? '') === (y.effect ?? '') &&
  x.tolerationSeconds === y.tolerationSeconds;

/** Whether `ss` tolerates everything `t` does. */
export function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (same(ss, t)) return true;
  if ((t.key ?? '') !== (ss.key ?? '') && ((ss.key ?? '') !== '' || ss.operator !== 'Exists')) return false;
  if ((t.effect ?? '') !== (ss.effect ?? '') && (ss.effect ?? '') !== '') return false;
  if (ss.effect === 'NoExecute' && ss.tolerationSeconds !== undefined && ss.tolerationSeconds !== null) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (ss.operator ?? '') {
    case 'Equal':
    case '':
      return t.operator === 'Equal' && (t.value ?? '') === (ss.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** first ∪ second without entries another one covers. */
export function mergeTolerations(first: Toleration[], second: Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    if (all.slice(i + 1).some((t2) => !same(t, t2) && isSuperset(t2, t))) return;
    merged.push(t);
  });
  return merged;
}

/** Every toleration is covered by some whitelist entry (an empty whitelist allows all). */
export function verifyAgainstWhitelist(tolerations: Toleration[], whitelist: Toleration[]): boolean {
  if (whitelist.length === 0 || tolerations.length === 0) return true;
  return tolerations.every((t) => whitelist.some((w) => isSuperset(w, t)));
}
