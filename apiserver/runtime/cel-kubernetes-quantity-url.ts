/**
 * The Kubernetes quantity and URL CEL libraries (k8s.io/apiserver/pkg/cel/library quantity.go, urls.go)
 * on @bufbuild/cel. @bufbuild/cel types objects by protobuf message, so a Quantity or URL value is a
 * one-entry map (`@quantity` → its canonical text, `@url` → the URL) that only these functions read.
 * quantity(s), isQuantity(s), q.sign(), q.isInteger(), q.asInteger(), q.asApproximateFloat(),
 * q.compareTo(q2), q.isLessThan(q2), q.isGreaterThan(q2), q.add(q2 | int), q.sub(q2 | int);
 * url(s), isURL(s), u.getScheme(), u.getHost(), u.getHostname(), u.getPort(), u.getEscapedPath(),
 * u.getQuery().
 */
import { type CelFunc, type CelMap, CelScalar, celFunc, celMethod, listType, mapType } from '@bufbuild/cel';
import { compareQuantities, formatQuantity, parseQuantity, type Quantity, quantitySign } from '../api/quantity.js';

const { INT, DOUBLE, STRING, BOOL, DYN } = CelScalar;
const OPAQUE = mapType(STRING, DYN);
const QUANTITY_KEY = '@quantity';
const URL_KEY = '@url';

const MAX_INT64 = 2n ** 63n - 1n;
const MIN_INT64 = -(2n ** 63n);

function quantityOf(m: CelMap): Quantity {
  const text = m.get(QUANTITY_KEY);
  if (typeof text !== 'string') throw new Error('no such overload');
  return parseQuantity(text);
}

const quantityValue = (q: Quantity) => new Map([[QUANTITY_KEY, formatQuantity(q)]]);

function align(a: Quantity, b: Quantity): [bigint, bigint, number] {
  const scale = Math.min(a.scale, b.scale);
  return [a.unscaled * 10n ** BigInt(a.scale - scale), b.unscaled * 10n ** BigInt(b.scale - scale), scale];
}

function plus(a: Quantity, b: Quantity, sign: 1n | -1n): Quantity {
  const [x, y, scale] = align(a, b);
  return { unscaled: x + sign * y, scale, format: a.format };
}

const intQuantity = (n: bigint): Quantity => ({ unscaled: n, scale: 0, format: 'DecimalSI' });

function asInteger(q: Quantity): bigint {
  if (q.scale < 0 && q.unscaled % 10n ** BigInt(-q.scale) !== 0n) throw new Error('cannot convert value to integer');
  const n = q.scale >= 0 ? q.unscaled * 10n ** BigInt(q.scale) : q.unscaled / 10n ** BigInt(-q.scale);
  if (n > MAX_INT64 || n < MIN_INT64) throw new Error('cannot convert value to integer');
  return n;
}

function isQuantity(s: string): boolean {
  try {
    parseQuantity(s);
    return true;
  } catch {
    return false;
  }
}

const QUANTITY: CelFunc[] = [
  celFunc('quantity', [STRING], OPAQUE, (s: string) => quantityValue(parseQuantity(s))),
  celFunc('isQuantity', [STRING], BOOL, isQuantity),
  celMethod('sign', OPAQUE, [], INT, function (this: CelMap) {
    return BigInt(quantitySign(quantityOf(this)));
  }),
  celMethod('isInteger', OPAQUE, [], BOOL, function (this: CelMap) {
    try {
      asInteger(quantityOf(this));
      return true;
    } catch {
      return false;
    }
  }),
  celMethod('asInteger', OPAQUE, [], INT, function (this: CelMap) {
    return asInteger(quantityOf(this));
  }),
  celMethod('asApproximateFloat', OPAQUE, [], DOUBLE, function (this: CelMap) {
    const q = quantityOf(this);
    return Number(q.unscaled) * 10 ** q.scale;
  }),
  celMethod('compareTo', OPAQUE, [OPAQUE], INT, function (this: CelMap, other: CelMap) {
    return BigInt(compareQuantities(quantityOf(this), quantityOf(other)));
  }),
  celMethod('isLessThan', OPAQUE, [OPAQUE], BOOL, function (this: CelMap, other: CelMap) {
    return compareQuantities(quantityOf(this), quantityOf(other)) < 0;
  }),
  celMethod('isGreaterThan', OPAQUE, [OPAQUE], BOOL, function (this: CelMap, other: CelMap) {
    return compareQuantities(quantityOf(this), quantityOf(other)) > 0;
  }),
  celMethod('add', OPAQUE, [OPAQUE], OPAQUE, function (this: CelMap, other: CelMap) {
    return quantityValue(plus(quantityOf(this), quantityOf(other), 1n));
  }),
  celMethod('add', OPAQUE, [INT], OPAQUE, function (this: CelMap, n: bigint) {
    return quantityValue(plus(quantityOf(this), intQuantity(n), 1n));
  }),
  celMethod('sub', OPAQUE, [OPAQUE], OPAQUE, function (this: CelMap, other: CelMap) {
    return quantityValue(plus(quantityOf(this), quantityOf(other), -1n));
  }),
  celMethod('sub', OPAQUE, [INT], OPAQUE, function (this: CelMap, n: bigint) {
    return quantityValue(plus(quantityOf(this), intQuantity(n), -1n));
  }),
];

/** Go's url.ParseRequestURI as the library uses it: an absolute URL, or an absolute path. */
function parseUrl(s: string): URL {
  if (s.startsWith('/')) return new URL(s, 'relative:///');
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(s))
    throw new Error(`URL parse error during conversion from string: parse "${s}": invalid URI for request`);
  try {
    return new URL(s);
  } catch {
    throw new Error(`URL parse error during conversion from string: parse "${s}": invalid URI for request`);
  }
}

function urlOf(m: CelMap): URL {
  const text = m.get(URL_KEY);
  if (typeof text !== 'string') throw new Error('no such overload');
  return parseUrl(text);
}

const relative = (u: URL) => u.protocol === 'relative:';

const URLS: CelFunc[] = [
  celFunc('url', [STRING], OPAQUE, (s: string) => {
    parseUrl(s);
    return new Map([[URL_KEY, s]]);
  }),
  celFunc('isURL', [STRING], BOOL, (s: string) => {
    try {
      parseUrl(s);
      return true;
    } catch {
      return false;
    }
  }),
  celMethod('getScheme', OPAQUE, [], STRING, function (this: CelMap) {
    const u = urlOf(this);
    return relative(u) ? '' : u.protocol.slice(0, -1);
  }),
  celMethod('getHost', OPAQUE, [], STRING, function (this: CelMap) {
    const u = urlOf(this);
    return relative(u) ? '' : u.host;
  }),
  celMethod('getHostname', OPAQUE, [], STRING, function (this: CelMap) {
    const u = urlOf(this);
    return relative(u) ? '' : u.hostname.replace(/^\[(.*)\]$/, '$1');
  }),
  celMethod('getPort', OPAQUE, [], STRING, function (this: CelMap) {
    const u = urlOf(this);
    return relative(u) ? '' : u.port;
  }),
  celMethod('getEscapedPath', OPAQUE, [], STRING, function (this: CelMap) {
    return urlOf(this).pathname;
  }),
  celMethod('getQuery', OPAQUE, [], mapType(STRING, listType(STRING)), function (this: CelMap) {
    const out = new Map<string, string[]>();
    for (const [k, v] of urlOf(this).searchParams) out.set(k, [...(out.get(k) ?? []), v]);
    return out;
  }),
];

export const QUANTITY_AND_URL_FUNCS: readonly CelFunc[] = [...QUANTITY, ...URLS];
