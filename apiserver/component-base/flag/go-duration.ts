/** Go's time.Duration syntax ("300ms", "-1.5h", "2h45m"), parsed and printed in milliseconds. */

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a Go duration ("300ms", "-1.5h", "2h45m", "0") into milliseconds, failing with time.ParseDuration's messages. */
export function parseGoDuration(input: string): number {
  const invalid = () => new Error(`time: invalid duration ${JSON.stringify(input)}`);
  let s = input;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let total = 0;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    const [whole, int = '', frac] = m;
    if (int === '' && (frac === undefined || frac === '')) throw invalid();
    s = s.slice(whole.length);
    const unit = /^[^\d.]*/.exec(s)![0];
    if (unit === '') throw new Error(`time: missing unit in duration ${JSON.stringify(input)}`);
    const ms = UNIT_MS[unit];
    if (ms === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(input)}`);
    s = s.slice(unit.length);
    total += Number(`${int || '0'}.${frac ?? '0'}`) * ms;
  }
  if (total > 9.223372036854775e12) throw invalid(); // beyond Go's int64 nanoseconds
  return sign * total;
}

const NS_PER_SECOND = 1_000_000_000n;
const NS_PER_MINUTE = 60n * NS_PER_SECOND;
const NS_PER_HOUR = 60n * NS_PER_MINUTE;

/** Prints milliseconds as Go's Duration.String() does: "0s", "1.5ms", "15s", "5m0s", "12h0m0s". */
export function formatGoDuration(ms: number): string {
  let ns = BigInt(Math.round(ms * 1e6));
  if (ns === 0n) return '0s';
  const sign = ns < 0n ? '-' : '';
  if (ns < 0n) ns = -ns;
  if (ns < NS_PER_SECOND) {
    const [unit, per] = ns < 1000n ? ['ns', 1n] : ns < 1_000_000n ? ['µs', 1000n] : ['ms', 1_000_000n];
    return `${sign}${decimal(ns, per)}${unit}`;
  }
  const hours = ns / NS_PER_HOUR;
  const minutes = (ns % NS_PER_HOUR) / NS_PER_MINUTE;
  const seconds = ns % NS_PER_MINUTE;
  return `${sign}${hours > 0n ? `${hours}h` : ''}${hours > 0n || minutes > 0n ? `${minutes}m` : ''}${decimal(seconds, NS_PER_SECOND)}s`;
}

/** value / per as a decimal without trailing zeros. */
function decimal(value: bigint, per: bigint): string {
  const fraction = value % per;
  if (fraction === 0n) return String(value / per);
  const digits = String(per).length - 1;
  return `${value / per}.${String(fraction).padStart(digits, '0').replace(/0+$/, '')}`;
}
