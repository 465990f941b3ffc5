/**
 * Ports of the small value checks of k8s.io/apimachinery/pkg/util/validation that pod specs use
 * (port names and numbers, environment variable names, user/group IDs, IPs, HTTP header names,
 * percentages), with Kubernetes' messages. Each returns the list of problems; empty means valid.
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { FieldError, FieldRef } from '../../../api/field-errors.js';
import { invalid } from '../../../api/field-errors.js';
import { maxLenError, regexError } from '../../../api/validation/names.js';

/** Kubernetes' InclusiveRangeError. */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** Kubernetes' IsNegativeErrorMsg. */
export const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0';

/** ValidateNonnegativeField: `value` must be ≥ 0. */
export function validateNonnegative(value: number | undefined, path: FieldRef): FieldError[] {
  return value !== undefined && value < 0 ? [invalid(path, value, IS_NEGATIVE_ERROR_MSG)] : [];
}

/** IsValidPortNum: 1..65535. */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** IsValidPortName: an IANA_SVC_NAME (at most 15 characters, a-z0-9 and '-', at least one letter). */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

const ENV_VAR_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_VAR_NAME_RE = new RegExp(`^${ENV_VAR_NAME_FMT}$`);
const ENV_VAR_NAME_ERR =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";

/** IsEnvVarName: a C-identifier-like name that may also use '-' and '.'. */
export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!ENV_VAR_NAME_RE.test(value)) errs.push(regexError(ENV_VAR_NAME_ERR, ENV_VAR_NAME_FMT, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

const MAX_ID = 2147483647;

/** IsValidUserID / IsValidGroupID: 0..2^31-1. */
export function isValidId(id: number): string[] {
  return id >= 0 && id <= MAX_ID ? [] : [inclusiveRangeError(0, MAX_ID)];
}

/** IsValidIP: an IPv4 or IPv6 address. */
export function isValidIP(value: string): string[] {
  return isIPv4(value) || isIPv6(value) ? [] : ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
}

const HTTP_HEADER_NAME_FMT = '[-A-Za-z0-9]+';
const HTTP_HEADER_NAME_RE = new RegExp(`^${HTTP_HEADER_NAME_FMT}$`);

/** IsHTTPHeaderName. */
export function isHTTPHeaderName(value: string): string[] {
  if (HTTP_HEADER_NAME_RE.test(value)) return [];
  return [regexError("a valid HTTP header must consist of alphanumeric characters or '-'", HTTP_HEADER_NAME_FMT, 'X-Header-Name')];
}

const PERCENT_FMT = '[0-9]+%';
const PERCENT_RE = new RegExp(`^${PERCENT_FMT}$`);

/** IsValidPercent: digits followed by '%'. */
export function isValidPercent(value: string): string[] {
  if (PERCENT_RE.test(value)) return [];
  return [regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT_FMT, '1%', '93%')];
}
