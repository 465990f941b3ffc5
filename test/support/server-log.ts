/**
 * What a test server logs: every line is kept (the last ones, repeats collapsed, go into the error
 * when the server fails to start). Once the server is ready, warnings, errors and lines that are not
 * log entries (a crash's stack) reach the test's stderr; before that, the failed readiness probes are
 * expected and stay in the log. ORCH_TEST_LOG (any value) passes every line through from the start.
 */
import { Writable } from 'node:stream';

const KEPT_LINES = 40;
const QUIET_LEVELS = new Set(['info', 'http', 'verbose', 'debug', 'silly']);

export interface ServerLog {
  /** Takes raw output (whole or partial lines). */
  write(chunk: string): void;
  /** The last lines written, oldest first. */
  tail(): string;
  /** The server is ready: from now on its warnings and errors reach stderr. */
  ready(): void;
  /** A stream for the in-process server's logger. */
  stream: Writable;
}

export function newServerLog(name: string): ServerLog {
  const verbose = !!process.env.ORCH_TEST_LOG;
  let passWarnings = false;
  const kept: { line: string; key: string; repeats: number }[] = [];
  let partial = '';
  const take = (line: string) => {
    if (!line.trim()) return;
    const key = line.replace(/^\{"ts":"[^"]*",/, '{');
    const last = kept.at(-1);
    if (last?.key === key) last.repeats++;
    else kept.push({ line, key, repeats: 0 });
    if (kept.length > KEPT_LINES) kept.shift();
    if (verbose || (passWarnings && !isQuiet(line))) process.stderr.write(`[${name}] ${line}\n`);
  };
  const write = (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) take(line);
  };
  return {
    write,
    tail: () =>
      [...kept.map((k) => (k.repeats ? `${k.line} (and ${k.repeats} more like it)` : k.line)), partial].filter((l) => l.trim()).join('\n'),
    ready: () => {
      passWarnings = true;
    },
    stream: new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        write(String(chunk));
        done();
      },
    }),
  };
}

/** A log entry below warning level; anything that is not a log entry is never quiet. */
function isQuiet(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    const level = (JSON.parse(line) as { level?: unknown }).level;
    return typeof level === 'string' && QUIET_LEVELS.has(level);
  } catch {
    return false;
  }
}
