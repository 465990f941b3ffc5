/** CronJob time zones: IANA names as Go's time.LoadLocation knows them, and validateTimeZone's rules. */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { invalid } from '../../../api/field-errors.js';

/** Whether the time zone database has this name ("" and "UTC" are UTC, as for LoadLocation). */
export function isKnownTimeZone(name: string): boolean {
  if (name === '' || name === 'UTC' || name === 'Local') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const COMPONENT = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** validateTimeZone: nil or an explicit IANA time zone. */
export function validateTimeZone(timeZone: string | undefined, path: FieldPath): FieldError[] {
  if (timeZone === undefined) return [];
  if (timeZone === '') return [invalid(path, timeZone, 'timeZone must be nil or non-empty string')];
  const malformed = timeZone.split('/').some((part) => part === '.' || part === '..' || part.startsWith('-') || !COMPONENT.test(part));
  if (malformed) return [invalid(path, timeZone, `unknown time zone ${timeZone}`)];
  if (timeZone.toLowerCase() === 'local') {
    return [invalid(path, timeZone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones')];
  }
  return isKnownTimeZone(timeZone) ? [] : [invalid(path, timeZone, `unknown time zone ${timeZone}`)];
}
