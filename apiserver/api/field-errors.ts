// Kubernetes' field.Error (k8s.io/apimachinery/pkg/util/validation/field) as plain data, with the exact
// message texts of field.Error.Error() / ErrorBody() and a field.Path-like builder.

/** Kubernetes' field.ErrorType; the same strings are the StatusCause reasons (metav1.CauseType). */
export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueDuplicate'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueNotFound'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

/**
 * One field-level validation error. An error without an own `badValue` property prints no value
 * (Kubernetes' omitValue); a `badValue` of undefined or null prints `null`.
 */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  badValue?: unknown;
  detail: string;
}

const TYPE_TEXT: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

type PathSegment = { name: string } | { index: string };

/**
 * A path from some root to a field, printed like Kubernetes' field.Path (`spec.ports[0][x]`). Each
 * path points at its parent, so a child costs one small object: validation makes a child for every
 * field it visits and prints only the few that have errors.
 */
export class FieldPath {
  private constructor(
    private readonly parent: FieldPath | undefined,
    private readonly segment: PathSegment,
  ) {}

  /** A root path made of one or more field names. */
  static of(name: string, ...moreNames: string[]): FieldPath {
    let p = new FieldPath(undefined, { name });
    for (const n of moreNames) p = new FieldPath(p, { name: n });
    return p;
  }

  /** The path to a (nested) field under this one. */
  child(name: string, ...moreNames: string[]): FieldPath {
    let p = new FieldPath(this, { name });
    for (const n of moreNames) p = new FieldPath(p, { name: n });
    return p;
  }

  /** This path subscripted by a list index: `ports[0]`. */
  index(i: number): FieldPath {
    return new FieldPath(this, { index: String(i) });
  }

  /** This path subscripted by a map key: `labels[app]`. */
  key(k: string): FieldPath {
    return new FieldPath(this, { index: k });
  }

  toString(): string {
    const segments: PathSegment[] = [];
    for (let p: FieldPath | undefined = this; p; p = p.parent) segments.push(p.segment);
    segments.reverse();
    let out = '';
    segments.forEach((s, i) => {
      if ('name' in s && s.name.length > 0) out += (i > 0 ? '.' : '') + s.name;
      else out += `[${'index' in s ? s.index : ''}]`;
    });
    return out;
  }
}

/** Starts a field path: `fieldPath('spec').child('ports').index(0).toString()` is `spec.ports[0]`. */
export function fieldPath(name: string, ...moreNames: string[]): FieldPath {
  return FieldPath.of(name, ...moreNames);
}

/** Where a field error points: a path or its printed form. */
export type FieldRef = string | FieldPath;

/** field.Required: a required value is missing. */
export function required(field: FieldRef, detail = ''): FieldError {
  return { type: 'FieldValueRequired', field: String(field), badValue: '', detail };
}

/** field.Invalid: a malformed value. */
export function invalid(field: FieldRef, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: String(field), badValue: value, detail };
}

/** field.Duplicate: a value that must be unique is repeated. */
export function duplicate(field: FieldRef, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field: String(field), badValue: value, detail: '' };
}

/** field.NotSupported: a value outside an enumeration; the detail lists the supported values. */
export function notSupported(field: FieldRef, value: unknown, validValues: readonly string[]): FieldError {
  const detail = validValues.length > 0 ? `supported values: ${validValues.map(goQuote).join(', ')}` : '';
  return { type: 'FieldValueNotSupported', field: String(field), badValue: value, detail };
}

/** field.Forbidden: a well-formed value that is not allowed here. */
export function forbidden(field: FieldRef, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field: String(field), badValue: '', detail };
}

/** field.TooLong: a value longer than `max` bytes (negative `max`: no limit named). The value is never printed. */
export function tooLong(field: FieldRef, _value: unknown, max: number): FieldError {
  const detail = max >= 0 ? `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` : 'value is too long';
  return { type: 'FieldValueTooLong', field: String(field), badValue: '<value omitted>', detail };
}

/** field.TooMany: a list with more than `max` items; a negative `actual` is left out of the message. */
export function tooMany(field: FieldRef, actual: number, max: number): FieldError {
  const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items';
  const error: FieldError = { type: 'FieldValueTooMany', field: String(field), detail };
  if (actual >= 0) error.badValue = actual;
  return error;
}

/** field.NotFound: a referenced value does not exist. */
export function notFound(field: FieldRef, value: unknown): FieldError {
  return { type: 'FieldValueNotFound', field: String(field), badValue: value, detail: '' };
}

/** field.TypeInvalid: a value of the wrong type for the schema. */
export function typeInvalid(field: FieldRef, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueTypeInvalid', field: String(field), badValue: value, detail };
}

/** field.Error.ErrorBody(): the message without the field name (the StatusCause message). */
export function errorBody(e: FieldError): string {
  const text = TYPE_TEXT[e.type];
  let s: string;
  switch (e.type) {
    case 'FieldValueRequired':
    case 'FieldValueForbidden':
    case 'FieldValueTooLong':
    case 'InternalError':
      s = text;
      break;
    default:
      s = Object.hasOwn(e, 'badValue') ? `${text}: ${formatBadValue(e.badValue)}` : text;
  }
  return e.detail.length > 0 ? `${s}: ${e.detail}` : s;
}

/** field.Error.Error(): `<field>: <body>`. */
export function errorMessage(e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`;
}

/** The StatusCause reason for an error type (Kubernetes uses the type string itself). */
export function reasonOf(type: FieldErrorType): string {
  return type;
}

/**
 * The text of `ErrorList.ToAggregate().Error()`: messages deduplicated in order, a single one as is,
 * several as `[a, b]`, none as the empty string.
 */
export function aggregateMessage(errors: readonly FieldError[]): string {
  const messages = [...new Set(errors.map(errorMessage))];
  return messages.length === 1 ? messages[0] : messages.length === 0 ? '' : `[${messages.join(', ')}]`;
}

/**
 * A bad value whose Go type is named (a typed slice such as `[]core.ResourceQuotaScope`, a map such
 * as `map[string]string`), so it prints as Kubernetes prints it with `%#v`. A string list whose type
 * is not named prints as `[]string`.
 */
export class GoTyped {
  constructor(
    readonly goType: string,
    readonly value: unknown,
  ) {}
}

/** `value` printed as Go's `%#v` of the named slice or map type. */
export function goTyped(goType: string, value: unknown): GoTyped {
  return new GoTyped(goType, value);
}

/**
 * Go's %#v of bytes, of a string slice, or of a string map named as such (an object may as well be
 * a struct, which Go prints otherwise), and `T(nil)` for a named type's nil; undefined for what it
 * cannot type (numbers, structs).
 */
function goSharpV(value: unknown, goType?: string): string | undefined {
  if (goType && (value === null || value === undefined)) return `${goType}(nil)`;
  if (goType === 'uint64' && typeof value === 'number') return `0x${value.toString(16)}`;
  if (value instanceof Uint8Array) return `${goType ?? '[]byte'}{${[...value].map((b) => `0x${b.toString(16)}`).join(', ')}}`;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return `${goType ?? '[]string'}{${value.map(goQuote).join(', ')}}`;
  if (goType?.startsWith('map[') && value && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.every(([, v]) => typeof v === 'string'))
      return `${goType ?? 'map[string]string'}{${entries
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => `${goQuote(k)}:${goQuote(v as string)}`)
        .join(', ')}}`;
  }
  return undefined;
}

/**
 * A bad value as ErrorBody prints it: strings as Go's %q, numbers and booleans plainly, string
 * slices and named maps as Go's %#v (`[]string{"a", "b"}`, `map[string]string{"k":"v"}`), the rest
 * (structs, whose Go names orch does not have) as Go's JSON.
 */
function formatBadValue(input: unknown): string {
  const value = input instanceof GoTyped ? input.value : input;
  const sharp = goSharpV(value, input instanceof GoTyped ? input.goType : undefined);
  if (sharp !== undefined) return sharp;
  switch (typeof value) {
    case 'string':
      return goQuote(value);
    case 'number':
      return formatGoNumber(value);
    case 'boolean':
      return String(value);
    default:
      return value === undefined || value === null ? 'null' : goJSON(value);
  }
}

/** A number as Go prints it: integers (int64) in full, other values like a float64 under %v (`1e-07`, `0.5`). */
export function formatGoNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  const [mantissa, expText] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

/** Go's json.Marshal of a plain value: JSON with <, >, & and U+2028/U+2029 escaped. */
function goJSON(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const SHORT_ESCAPES: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };

/** Go's strconv.Quote (the %q verb): a double-quoted string with Go escapes for unprintable characters. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\ufffd';
    else if (PRINTABLE.test(ch)) out += ch;
    else if (SHORT_ESCAPES[cp] !== undefined) out += SHORT_ESCAPES[cp];
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}
