/**
 * Structured logging: one JSON object per line on stderr — {"ts","level","msg","component", ...fields}.
 *
 * `component` names the binary that wrote the line (orch-apiserver, orch-controller-manager,
 * orch-proxy): each binary's entry point calls setLogComponent before it makes a logger, so the
 * lines of processes that share a terminal (npm start, a journal) can be told apart.
 */
import type { Writable } from 'node:stream';
import winston from 'winston';

/** The logger every component receives. */
export type Logger = winston.Logger;

const MESSAGE = Symbol.for('message');

let processComponent: string | undefined;

/** Names this process's component in every line logged from now on (called by the binaries' entry points). */
export function setLogComponent(component: string | undefined): void {
  processComponent = component;
}

/** Renders a log entry as a JSON line with ts, level and msg first, then the entry's own fields. */
const jsonLine = winston.format((info) => {
  const { level, message, ...fields } = info;
  const line: Record<string, unknown> = { ts: new Date().toISOString(), level, msg: message };
  if (processComponent !== undefined && fields.component === undefined) line.component = processComponent;
  for (const [key, value] of Object.entries(fields)) {
    line[key] = value instanceof Error ? value.message : value;
  }
  (info as Record<symbol, unknown>)[MESSAGE] = JSON.stringify(line);
  return info;
});

/**
 * A logger at options.logLevel (the winston level -v/--v maps to, see LogOptions) writing to stderr, or to `stream`
 * when one is given (tests).
 */
export function newLogger(options: { logLevel: string }, stream?: Writable): Logger {
  const transport = stream
    ? new winston.transports.Stream({ stream })
    : new winston.transports.Console({ stderrLevels: Object.keys(winston.config.npm.levels) });
  return winston.createLogger({ level: options.logLevel, format: jsonLine(), transports: [transport] });
}
