/**
 * Cron schedules as CronJobs run them (robfig/cron v3's standard parser): five fields (minute, hour,
 * day of month, month, day of week; names, ranges, steps, `*`, `?`), the @yearly … @hourly
 * descriptors and `@every <duration>`, evaluated in a time zone (IANA name, the process's own when
 * none). When both day fields are restricted a day matching either runs, as in cron.
 */

interface Field {
  bits: Set<number>;
  /** `*` or `?` without a step. */
  star: boolean;
}

export interface Schedule {
  /** The first run strictly after `afterMs` (epoch ms), or undefined when there is none within 5 years. */
  next(afterMs: number): number | undefined;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const BOUNDS: [number, number, string[]?][] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12, MONTHS],
  [0, 6, DAYS],
];
const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

function value(s: string, [min, , names]: [number, number, string[]?]): number {
  const named = names?.indexOf(s.toLowerCase()) ?? -1;
  if (named >= 0) return named + min;
  if (!/^\d+$/.test(s)) throw new Error(`failed to parse int from ${s}`);
  return Number(s);
}

function parseField(expr: string, bounds: [number, number, string[]?]): Field {
  const bits = new Set<number>();
  let star = false;
  for (const part of expr.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : value(stepText, [0, 0]);
    if (step < 1) throw new Error(`step of range should be a positive number: ${part}`);
    let lo: number;
    let hi: number;
    if (range === '*' || range === '?') {
      [lo, hi] = bounds;
      if (stepText === undefined) star = true;
    } else {
      const [a, b] = range.split('-');
      lo = value(a, bounds);
      hi = b === undefined ? (stepText === undefined ? lo : bounds[1]) : value(b, bounds);
    }
    if (lo < bounds[0] || hi > bounds[1] || lo > hi) throw new Error(`end of range (${hi}) above maximum (${bounds[1]}): ${part}`);
    for (let i = lo; i <= hi; i += step) bits.add(i);
  }
  return { bits, star };
}

/** Go duration text (`1h30m`, `90s`) in ms. */
function parseDuration(s: string): number {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  let total = 0;
  const re = /(\d+(?:\.\d+)?)(h|ms|m|s)/gy;
  let m: RegExpExecArray | null;
  let seen = 0;
  while ((m = re.exec(s))) {
    total += Number(m[1]) * units[m[2]];
    seen += m[0].length;
  }
  if (seen !== s.length || seen === 0) throw new Error(`failed to parse duration ${s}`);
  return total;
}

/** Wall-clock fields of an instant in a time zone. */
function fieldsIn(formatter: Intl.DateTimeFormat, ms: number) {
  const parts: Record<string, number> = {};
  for (const p of formatter.formatToParts(ms))
    if (p.type !== 'literal') parts[p.type] = p.type === 'weekday' ? DAYS.indexOf(p.value.toLowerCase().slice(0, 3)) : Number(p.value);
  return { minute: parts.minute, hour: parts.hour % 24, day: parts.day, month: parts.month, weekday: parts.weekday };
}

/** Parses a schedule; throws on a bad one. `timeZone` is an IANA name (undefined: the process's). */
export function parseSchedule(spec: string, timeZone?: string): Schedule {
  let text = spec.trim();
  const tz = /^(?:CRON_)?TZ=(\S+)\s+(.*)$/.exec(text);
  if (tz) {
    timeZone = tz[1];
    text = tz[2];
  }
  if (text.startsWith('@every ')) {
    const every = Math.max(1000, Math.floor(parseDuration(text.slice(7).trim()) / 1000) * 1000);
    return { next: (after) => Math.floor(after / 1000) * 1000 + every };
  }
  const fields = (DESCRIPTORS[text] ?? text).split(/\s+/);
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: ${spec}`);
  const [minute, hour, dom, month, dow] = fields.map((f, i) => parseField(f, BOUNDS[i]));
  // Sunday may be written 7 in some crons; robfig refuses it (bounds 0-6), so do we.
  const formatter = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    weekday: 'short',
  });
  const dayMatches = (day: number, weekday: number) => {
    const d = dom.bits.has(day);
    const w = dow.bits.has(weekday);
    return dom.star || dow.star ? d && w : d || w;
  };
  return {
    next(after) {
      let t = Math.floor(after / 60_000) * 60_000 + 60_000;
      const limit = after + 5 * 366 * 86_400_000;
      while (t <= limit) {
        const f = fieldsIn(formatter, t);
        if (!month.bits.has(f.month) || !dayMatches(f.day, f.weekday) || !hour.bits.has(f.hour)) {
          t += (60 - f.minute) * 60_000;
          continue;
        }
        if (!minute.bits.has(f.minute)) {
          t += 60_000;
          continue;
        }
        return t;
      }
      return undefined;
    },
  };
}
