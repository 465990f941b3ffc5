/**
 * A node-port range as Kubernetes' utilnet.PortRange parses it ("30000-32767", "30000+2767" or one
 * port "30000"), with its error texts.
 */
export interface PortRange {
  base: number;
  /** Number of ports; the last one is base + size - 1. */
  size: number;
}

/** Go's strconv.Atoi error text for a non-number. */
function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  return Number(s);
}

/** Parses a port range; throws with utilnet.PortRange.Set's messages. */
export function parsePortRange(input: string): PortRange {
  const value = input.trim();
  const hyphen = value.indexOf('-');
  const plus = value.indexOf('+');
  let low: number;
  let high: number;
  if (hyphen >= 0 && plus >= 0) throw new Error(`unable to parse port range: ${value}`);
  if (hyphen >= 0) {
    low = atoi(value.slice(0, hyphen));
    high = atoi(value.slice(hyphen + 1));
  } else if (plus >= 0) {
    low = atoi(value.slice(0, plus));
    high = low + atoi(value.slice(plus + 1));
  } else {
    low = high = atoi(value);
  }
  if (low > 65535 || high > 65535) throw new Error(`the port range cannot be greater than 65535: ${value}`);
  if (high < low) throw new Error(`end port cannot be less than start port: ${value}`);
  return { base: low, size: 1 + high - low };
}

/** "30000-32767", as PortRange.String() prints it. */
export function formatPortRange(range: PortRange): string {
  return `${range.base}-${range.base + range.size - 1}`;
}
