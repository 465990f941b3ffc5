/**
 * Flag value types (pflag's Value): how one command-line string becomes a typed value, and how
 * --help shows a default. A parse failure throws an Error whose message is the reason pflag gives
 * after `invalid argument "…" for "--name" flag: `.
 */
import { isIP } from 'node:net';
import { formatGoDuration, parseGoDuration } from './go-duration.js';

export interface ValueType<T> {
  /** The type name --help prints after the flag ('' for booleans). */
  readonly type: string;
  /** Booleans need no argument: `--flag` means true. */
  readonly isBool?: boolean;
  /** The value after one more occurrence; `changed` says whether the command line set it before. */
  set(raw: string, current: T, changed: boolean): T;
  /** The value as --help shows a default. */
  format(value: T): string;
  /** --help leaves out zero defaults, as pflag does. */
  isZero(value: T): boolean;
}

/** A value type whose every occurrence replaces the value (the last one wins). */
export function scalarValue<T>(type: string, parse: (raw: string) => T, format: (v: T) => string, isZero: (v: T) => boolean): ValueType<T> {
  return { type, set: (raw) => parse(raw), format, isZero };
}

export const stringValue: ValueType<string> = scalarValue(
  'string',
  (raw) => raw,
  (v) => JSON.stringify(v),
  (v) => v === '',
);

/** A comma list; repeated flags accumulate, and the first occurrence replaces the default (pflag StringSlice). */
export const stringsValue: ValueType<string[]> = {
  type: 'strings',
  set(raw, current, changed) {
    const items = raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    return changed ? [...current, ...items] : items;
  },
  format: (v) => `[${v.join(',')}]`,
  isZero: (v) => v.length === 0,
};

const TRUE = ['1', 't', 'T', 'true', 'TRUE', 'True'];
const FALSE = ['0', 'f', 'F', 'false', 'FALSE', 'False'];

/** strconv.ParseBool's spellings. */
export const boolValue: ValueType<boolean> = {
  ...scalarValue(
    '',
    (raw) => {
      if (TRUE.includes(raw)) return true;
      if (FALSE.includes(raw)) return false;
      throw new Error(`strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
    },
    String,
    (v) => !v,
  ),
  isBool: true,
};

/** A decimal integer that a number holds exactly. */
export const intValue: ValueType<number> = scalarValue(
  'int',
  (raw) => {
    if (!/^[+-]?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
      throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`);
    }
    return Number(raw);
  },
  String,
  (v) => v === 0,
);

/** A decimal float (pflag float32): strconv.ParseFloat's syntax, Inf and NaN refused. */
export const float32Value: ValueType<number> = scalarValue(
  'float32',
  (raw) => {
    const v = Number(raw);
    if (raw.trim() === '' || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw) || !Number.isFinite(v)) {
      throw new Error(`strconv.ParseFloat: parsing ${JSON.stringify(raw)}: invalid syntax`);
    }
    return v;
  },
  String,
  (v) => v === 0,
);

/** A Go duration, held in milliseconds. */
export const durationValue: ValueType<number> = scalarValue('duration', parseGoDuration, formatGoDuration, (v) => v === 0);

/** An IPv4 or IPv6 address, held as typed. */
export const ipValue: ValueType<string> = scalarValue(
  'ip',
  (raw) => {
    if (isIP(raw) === 0) throw new Error(`failed to parse IP: ${JSON.stringify(raw)}`);
    return raw;
  },
  (v) => v,
  (v) => v === '',
);

/** `key=value` pairs, comma separated (a key alone means value ""); repeated flags add to them (Kubernetes' ConfigurationMap). */
export const configurationMapValue: ValueType<Map<string, string>> = {
  type: 'mapStringString',
  set(raw, current, changed) {
    const out = changed ? new Map(current) : new Map<string, string>();
    for (const item of raw.split(',')) {
      const s = item.trim();
      if (s === '') continue;
      const eq = s.indexOf('=');
      out.set(eq < 0 ? s : s.slice(0, eq).trim(), eq < 0 ? '' : s.slice(eq + 1).trim());
    }
    return out;
  },
  format: (v) => [...v].map(([k, val]) => `${k}=${val}`).join(','),
  isZero: (v) => v.size === 0,
};
