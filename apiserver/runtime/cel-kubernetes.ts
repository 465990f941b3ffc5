/**
 * The CEL environment of admission policies: @bufbuild/cel's standard library plus the Kubernetes
 * libraries policies use (the strings extension: lowerAscii, split, join, replace, …; the lists
 * library: isSorted, sum, min, max, indexOf, lastIndexOf; quantity and URL: cel-kubernetes-quantity-url.ts; the authorizer: cel-kubernetes-authz.ts).
 * One environment, built once.
 */
import { type CelEnv, type CelFunc, type CelList, CelScalar, celEnv, celMethod, listType } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { AUTHZ_FUNCS } from './cel-kubernetes-authz.js';
import { QUANTITY_AND_URL_FUNCS } from './cel-kubernetes-quantity-url.js';

const { INT, BOOL, DYN } = CelScalar;
const LIST = listType(DYN);

type Comparable = bigint | number | string | boolean;

function items(list: CelList): Comparable[] {
  return [...list] as Comparable[];
}

function compare(a: Comparable, b: Comparable): number {
  if (typeof a !== typeof b) throw new Error('no such overload');
  return a < b ? -1 : a > b ? 1 : 0;
}

function extreme(list: CelList, sign: number): Comparable {
  const xs = items(list);
  if (xs.length === 0) throw new Error('min/max of an empty list');
  return xs.reduce((m, x) => (compare(x, m) * sign > 0 ? x : m));
}

function sum(list: CelList): Comparable {
  const xs = items(list);
  if (xs.length === 0) return 0n;
  if (typeof xs[0] === 'bigint') return (xs as bigint[]).reduce((s, x) => s + x, 0n);
  if (typeof xs[0] === 'number') return (xs as number[]).reduce((s, x) => s + x, 0);
  throw new Error('no such overload');
}

/** CEL equality of list elements: scalars by value, lists and maps element by element. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Symbol.iterator in a && Symbol.iterator in b && !(a instanceof Map) && !(b instanceof Map)) {
    const xs = [...(a as Iterable<unknown>)];
    const ys = [...(b as Iterable<unknown>)];
    return xs.length === ys.length && xs.every((x, i) => sameValue(x, ys[i]));
  }
  if (a instanceof Map && b instanceof Map) return a.size === b.size && [...a].every(([k, v]) => b.has(k) && sameValue(v, b.get(k)));
  return false;
}

function indexOf(list: CelList, value: unknown, last: boolean): bigint {
  const xs = [...list];
  const eq = (x: unknown) => sameValue(x, value);
  if (!last) return BigInt(xs.findIndex(eq));
  for (let i = xs.length - 1; i >= 0; i--) if (eq(xs[i])) return BigInt(i);
  return -1n;
}

/** The Kubernetes lists library (k8s.io/apiserver/pkg/cel/library/lists.go). */
const LISTS: CelFunc[] = [
  celMethod('isSorted', LIST, [], BOOL, function (this: CelList) {
    const xs = items(this);
    return xs.every((x, i) => i === 0 || compare(xs[i - 1], x) <= 0);
  }),
  celMethod('sum', LIST, [], DYN, function (this: CelList) {
    return sum(this);
  }),
  celMethod('min', LIST, [], DYN, function (this: CelList) {
    return extreme(this, -1);
  }),
  celMethod('max', LIST, [], DYN, function (this: CelList) {
    return extreme(this, 1);
  }),
  celMethod('indexOf', LIST, [DYN], INT, function (this: CelList, v: unknown) {
    return indexOf(this, v, false);
  }),
  celMethod('lastIndexOf', LIST, [DYN], INT, function (this: CelList, v: unknown) {
    return indexOf(this, v, true);
  }),
];

export const KUBERNETES_CEL_FUNCS: readonly CelFunc[] = [...strings, ...LISTS, ...QUANTITY_AND_URL_FUNCS, ...AUTHZ_FUNCS];

let env: CelEnv | undefined;
/** The admission policies' environment (built on first use). */
export function kubernetesCelEnv(): CelEnv {
  env ??= celEnv({ funcs: [...KUBERNETES_CEL_FUNCS] });
  return env;
}
