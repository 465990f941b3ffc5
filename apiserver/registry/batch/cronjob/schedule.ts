/**
 * CronJob schedules as Kubernetes checks them: robfig/cron v3's ParseStandard (five fields, or a
 * descriptor such as "@hourly" or "@every 1h30m", optionally after TZ=/CRON_TZ=), with its error texts.
 */
import { goQuote } from '../../../api/field-errors.js';
import { isKnownTimeZone } from './time-zone.js';
import { messageOf } from '../../../api/thrown.js';

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** second (always "0" here), minute, hour, day of month, month, day of week. */
const FIELD_BOUNDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: Object.fromEntries(MONTH_NAMES.map((n, i) => [n, i + 1])) },
  { min: 0, max: 6, names: Object.fromEntries(DAY_NAMES.map((n, i) => [n, i])) },
];

const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);
const DURATION_UNITS = new Set(['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h']);

class ScheduleError extends Error {}

/** strconv.Atoi's errors, and robfig's refusal of negative numbers. */
function parseInteger(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr))
    throw new ScheduleError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: invalid syntax`);
  const n = BigInt(expr);
  if (n < -(2n ** 63n) || n >= 2n ** 63n)
    throw new ScheduleError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: value out of range`);
  if (n < 0n) throw new ScheduleError(`negative number (${n}) not allowed: ${expr}`);
  return Number(n);
}

function parseIntOrName(expr: string, bounds: Bounds): number {
  const named = bounds.names?.[expr.toLowerCase()];
  return named !== undefined ? named : parseInteger(expr);
}

/** getRange: `*`, `?`, `n`, `n-m`, each optionally `/step`. */
function checkRange(expr: string, bounds: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0].split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = bounds.min;
    end = bounds.max;
  } else {
    start = parseIntOrName(lowAndHigh[0], bounds);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1], bounds);
    else throw new ScheduleError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseInteger(rangeAndStep[1]);
    if (lowAndHigh.length === 1) end = bounds.max;
  } else if (rangeAndStep.length > 2) throw new ScheduleError(`too many slashes: ${expr}`);
  if (start < bounds.min) throw new ScheduleError(`beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > bounds.max) throw new ScheduleError(`end of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end) throw new ScheduleError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new ScheduleError(`step of range should be a positive number: ${expr}`);
}

/** time.ParseDuration's errors. */
function checkDuration(text: string): void {
  const quoted = `"${text}"`;
  let s = text.replace(/^[-+]/, '');
  if (s === '0') return;
  if (s === '') throw new ScheduleError(`time: invalid duration ${quoted}`);
  while (s !== '') {
    const number = /^(\d*)(\.(\d*))?/.exec(s)!;
    if (number[1] === '' && (number[3] ?? '') === '') throw new ScheduleError(`time: invalid duration ${quoted}`);
    s = s.slice(number[0].length);
    const unit = /^[^.0-9]*/.exec(s)![0];
    if (unit === '') throw new ScheduleError(`time: missing unit in duration ${quoted}`);
    if (!DURATION_UNITS.has(unit)) throw new ScheduleError(`time: unknown unit ${goQuote(unit)} in duration ${quoted}`);
    s = s.slice(unit.length);
  }
}

function checkDescriptor(spec: string): void {
  if (DESCRIPTORS.has(spec)) return;
  const every = '@every ';
  if (spec.startsWith(every)) {
    try {
      checkDuration(spec.slice(every.length));
    } catch (err) {
      throw new ScheduleError(`failed to parse duration ${spec}: ${messageOf(err)}`);
    }
    return;
  }
  throw new ScheduleError(`unrecognized descriptor: ${spec}`);
}

/** Why a schedule does not parse (robfig/cron's message), or undefined when it does. */
export function scheduleError(schedule: string): string | undefined {
  try {
    let spec = schedule;
    if (spec.length === 0) throw new ScheduleError('empty spec string');
    if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
      const space = spec.indexOf(' ');
      const location = spec.slice(spec.indexOf('=') + 1, space < 0 ? undefined : space);
      if (!isKnownTimeZone(location)) throw new ScheduleError(`provided bad location ${location}: unknown time zone ${location}`);
      spec = space < 0 ? '' : spec.slice(space).trim();
    }
    if (spec.startsWith('@')) {
      checkDescriptor(spec);
      return undefined;
    }
    const fields = spec.split(/\s+/).filter((f) => f !== '');
    if (fields.length !== 5) throw new ScheduleError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
    ['0', ...fields].forEach((field, i) => {
      for (const expr of field.split(',').filter((e) => e !== '')) checkRange(expr, FIELD_BOUNDS[i]);
    });
    return undefined;
  } catch (err) {
    if (err instanceof ScheduleError) return err.message;
    throw err;
  }
}
