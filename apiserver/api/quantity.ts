/**
 * resource.Quantity (`10Gi`, `500m`, `1e3`): Kubernetes' grammar, exact values and comparison, and the
 * canonical text Kubernetes prints (`Quantity.String()`). A value is `unscaled × 10^scale`, kept exact
 * with bigints, so `1Gi` and `1073741824` compare equal and huge exponents cost nothing until printed.
 *
 *   <quantity>        ::= <signedNumber><suffix>
 *   <suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI>
 *   <binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei
 *   <decimalSI>       ::= n | u | m | "" | k | M | G | T | P | E
 *   <decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber>
 */

/** How a quantity was written, which decides how it prints. */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** An exact quantity: `unscaled × 10^scale`. */
export interface Quantity {
  readonly unscaled: bigint;
  readonly scale: number;
  readonly format: QuantityFormat;
}

/** Kubernetes' ErrFormatWrong. */
export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** Kubernetes' ErrSuffix. */
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

/** A string that is not a quantity; the message is Kubernetes' text. */
export class QuantityParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuantityParseError';
  }
}

export const ZERO_QUANTITY: Quantity = { unscaled: 0n, scale: 0, format: 'DecimalSI' };

const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const SUFFIX_CHARS = 'eEinumkKMGTP';
/** Values are kept to nano precision (10^-9), rounded away from zero. */
const NANO_SCALE = -9;
/** The largest magnitude a binary-SI quantity keeps (int64's maximum). */
const MAX_INT64 = 2n ** 63n - 1n;
const MIN_INT64 = -(2n ** 63n);

const isDigit = (c: string): boolean => c >= '0' && c <= '9';

interface QuantityParts {
  positive: boolean;
  /** Integer digits without leading zeros ("0" when none). */
  num: string;
  /** Fraction digits. */
  denom: string;
  suffix: string;
}

/** parseQuantityString: sign, number and suffix, in Kubernetes' lenient way ("1.G", "-" and "." are accepted). */
function splitQuantity(str: string): QuantityParts {
  const end = str.length;
  let pos = 0;
  let positive = true;
  if (str[0] === '-' || str[0] === '+') {
    positive = str[0] === '+';
    pos++;
  }
  while (pos < end && str[pos] === '0') pos++;
  const numStart = pos;
  while (pos < end && isDigit(str[pos])) pos++;
  const num = str.slice(numStart, pos) || '0';
  let denom = '';
  if (pos < end && str[pos] === '.') {
    const denomStart = ++pos;
    while (pos < end && isDigit(str[pos])) pos++;
    denom = str.slice(denomStart, pos);
  }
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(str[pos])) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) throw new QuantityParseError(QUANTITY_FORMAT_ERROR);
  return { positive, num, denom, suffix: str.slice(suffixStart) };
}

/** The suffix as base and exponent: decimal SI, binary SI, or `e<int64>` (kept as Go's int32 conversion does). */
function interpretSuffix(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } {
  if (Object.hasOwn(DECIMAL_SUFFIXES, suffix)) return { base: 10, exponent: DECIMAL_SUFFIXES[suffix], format: 'DecimalSI' };
  if (Object.hasOwn(BINARY_SUFFIXES, suffix)) return { base: 2, exponent: BINARY_SUFFIXES[suffix], format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?\d+$/.test(suffix.slice(1))) {
    const parsed = BigInt(suffix.slice(1));
    if (parsed >= MIN_INT64 && parsed <= MAX_INT64)
      return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent' };
  }
  throw new QuantityParseError(QUANTITY_SUFFIX_ERROR);
}

/** Number of decimal digits of a non-negative bigint (1 for zero). */
function digitCount(n: bigint): number {
  return n.toString().length;
}

const abs = (n: bigint): bigint => (n < 0n ? -n : n);
const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Rounds a magnitude to nano precision, upwards, as ParseQuantity does for anything finer than 1n. */
function roundToNano(magnitude: bigint, scale: number): { magnitude: bigint; scale: number } {
  if (scale >= NANO_SCALE || magnitude === 0n) return { magnitude, scale };
  const drop = NANO_SCALE - scale;
  if (drop >= digitCount(magnitude)) return { magnitude: 1n, scale: NANO_SCALE };
  const divisor = pow10(drop);
  const rounded = magnitude / divisor + (magnitude % divisor === 0n ? 0n : 1n);
  return { magnitude: rounded, scale: NANO_SCALE };
}

/** ParseQuantity: the quantity a string denotes, or a QuantityParseError with Kubernetes' message. */
export function parseQuantity(str: string): Quantity {
  if (str.length === 0) throw new QuantityParseError(QUANTITY_FORMAT_ERROR);
  if (str === '0') return ZERO_QUANTITY;
  const parts = splitQuantity(str);
  const { base, exponent, format } = interpretSuffix(parts.suffix);
  let magnitude = BigInt(parts.num + parts.denom);
  let scale = 0 - parts.denom.length;
  if (base === 10) scale += exponent;
  else magnitude *= 2n ** BigInt(exponent);
  ({ magnitude, scale } = roundToNano(magnitude, scale));
  if (format === 'BinarySI' && compareMagnitudes(magnitude, scale, MAX_INT64, 0) > 0) {
    magnitude = MAX_INT64;
    scale = 0;
  }
  return { unscaled: parts.positive ? magnitude : -magnitude, scale, format };
}

/** A quantity from a JSON value (a string, or a number as Kubernetes also accepts); throws QuantityParseError. */
export function quantityFrom(value: unknown): Quantity {
  if (typeof value === 'number' && Number.isFinite(value)) return parseQuantity(String(value));
  if (typeof value !== 'string') throw new QuantityParseError(QUANTITY_FORMAT_ERROR);
  return parseQuantity(value.trim());
}

/** -1, 0 or 1 as the quantity is negative, zero or positive. */
export function quantitySign(q: Quantity): -1 | 0 | 1 {
  return q.unscaled < 0n ? -1 : q.unscaled > 0n ? 1 : 0;
}

function compareMagnitudes(a: bigint, aScale: number, b: bigint, bScale: number): -1 | 0 | 1 {
  if (a === 0n || b === 0n) return a === b ? 0 : a === 0n ? -1 : 1;
  const orderA = digitCount(a) + aScale;
  const orderB = digitCount(b) + bScale;
  if (orderA !== orderB) return orderA < orderB ? -1 : 1;
  // Same order of magnitude: the scales differ by at most the digit counts, so aligning is cheap.
  const common = Math.min(aScale, bScale);
  const x = a * pow10(aScale - common);
  const y = b * pow10(bScale - common);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Quantity.Cmp: -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  const sa = quantitySign(a);
  const sb = quantitySign(b);
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const byMagnitude = compareMagnitudes(abs(a.unscaled), a.scale, abs(b.unscaled), b.scale);
  return (sa < 0 ? -byMagnitude : byMagnitude) as -1 | 0 | 1;
}

/**
 * Quantity.ScaledValue: the value in units of 10^scale, rounded away from zero and clamped to int64
 * (Value() is scale 0, MilliValue() scale -3).
 */
export function scaledValue(q: Quantity, scale: number): bigint {
  const sign = BigInt(quantitySign(q));
  const magnitude = abs(q.unscaled);
  if (magnitude === 0n) return 0n;
  if (compareMagnitudes(magnitude, q.scale - scale, MAX_INT64, 0) > 0) return sign < 0n ? MIN_INT64 : MAX_INT64;
  if (q.scale >= scale) return sign * magnitude * pow10(q.scale - scale);
  const drop = scale - q.scale;
  if (drop >= digitCount(magnitude)) return sign;
  const divisor = pow10(drop);
  return sign * (magnitude / divisor + (magnitude % divisor === 0n ? 0n : 1n));
}

/** Whether the quantity is a whole number. */
function isInteger(q: Quantity): boolean {
  if (q.scale >= 0) return true;
  return q.unscaled % pow10(-q.scale) === 0n;
}

const DECIMAL_SUFFIX_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIXES).map(([s, e]) => [e, s]));
const BINARY_SUFFIX_BY_EXPONENT = new Map(Object.entries(BINARY_SUFFIXES).map(([s, e]) => [e, s]));

/** Decimal canonical form: an integer mantissa and an exponent that is a multiple of 3. */
function decimalText(q: Quantity, format: QuantityFormat): string {
  let mantissa = q.unscaled;
  let exponent = q.scale;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  const shift = ((exponent % 3) + 3) % 3;
  mantissa *= pow10(shift);
  exponent -= shift;
  const si = format === 'DecimalSI' ? DECIMAL_SUFFIX_BY_EXPONENT.get(exponent) : undefined;
  if (si !== undefined) return `${mantissa}${si}`;
  return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
}

/**
 * Quantity.String(): the canonical text. Decimal quantities print with an exponent that is a multiple of
 * 3 (`1500m`, `1k`, `1e3`); binary ones with the largest exact power of 1024 (`1536Mi`), or decimally
 * when that would lose precision or the magnitude is below 1024.
 */
export function formatQuantity(q: Quantity): string {
  if (q.unscaled === 0n) return '0';
  if (q.format !== 'BinarySI') return decimalText(q, q.format);
  const small = compareMagnitudes(abs(q.unscaled), q.scale, 1024n, 0) < 0;
  if (small || !isInteger(q)) return decimalText(q, 'DecimalSI');
  let value = q.scale >= 0 ? q.unscaled * pow10(q.scale) : q.unscaled / pow10(-q.scale);
  let exponent = 0;
  while (value % 1024n === 0n) {
    value /= 1024n;
    exponent += 10;
  }
  return `${value}${BINARY_SUFFIX_BY_EXPONENT.get(exponent) ?? ''}`;
}

/** The canonical text of a quantity string, or the string itself when it is not a quantity. */
export function canonicalQuantityText(value: unknown): string {
  try {
    return formatQuantity(quantityFrom(value));
  } catch {
    return String(value);
  }
}
