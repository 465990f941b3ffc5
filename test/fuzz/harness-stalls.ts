/**
 * When this test process itself could not run: a ticker that records each gap between its ticks far
 * longer than its period. A request the harness answered late because it was busy (making a large
 * input, parsing a large answer) is not the server's delay; the time of the stalls that overlap a
 * request is taken off its duration before it is judged slow.
 */
const TICK_MS = 50;
/** A gap longer than this (past the tick) counts as a stall. */
const STALL_MS = 200;
/** Stalls are kept this long: a request is never judged later than its abort limit after it began. */
const KEEP_MS = 60_000;

export interface HarnessStalls {
  /** The milliseconds of [from, to] (performance.now() times) this process was stalled. */
  within(from: number, to: number): number;
  /** The longest stall seen. */
  longest(): number;
  stop(): void;
}

export function watchHarnessStalls(): HarnessStalls {
  const stalls: { from: number; to: number }[] = [];
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last - TICK_MS > STALL_MS) {
      stalls.push({ from: last + TICK_MS, to: now });
      longest = Math.max(longest, now - last - TICK_MS);
      while (stalls.length > 0 && stalls[0].to < now - KEEP_MS) stalls.shift();
    }
    last = now;
  }, TICK_MS);
  timer.unref();
  return {
    within: (from, to) => stalls.reduce((sum, s) => sum + Math.max(0, Math.min(to, s.to) - Math.max(from, s.from)), 0),
    longest: () => longest,
    stop: () => clearInterval(timer),
  };
}
