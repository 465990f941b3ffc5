/**
 * /healthz, /livez and /readyz, answered exactly like kube-apiserver's healthz package:
 *
 *   GET /readyz                 → "ok" (200) when every check passes
 *   GET /readyz?verbose         → "[+]ping ok\n…readyz check passed\n"
 *   GET /readyz?exclude=etcd    → the etcd check is skipped ("[+]etcd excluded: ok")
 *   any failure                 → the verbose list with "[-]NAME failed: reason withheld", then
 *                                 "readyz check failed" (500)
 *   GET /readyz/etcd            → that one check: "ok", or "internal server error: <why>" (500)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The three health endpoints. */
export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

/** A check passes by returning and fails by throwing. */
export type HealthCheck = () => Promise<void> | void;

/** The health checks of one server and the handler that reports them. */
export interface HealthChecks {
  /** Registers check `name` on the given endpoints (a name may be used once per endpoint). */
  add(name: string, check: HealthCheck, on: HealthEndpoint[]): void;
  /**
   * Registers `poststarthook/<name>` on all three endpoints; it fails until the returned function
   * is called.
   */
  addPostStartHook(name: string): () => void;
  /** Makes the readyz `shutdown` check fail from now on. */
  startShutdown(): void;
  /** Answers the request when its path belongs to a health endpoint; false when it does not. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

/** Settings of newHealthChecks. */
export interface HealthChecksOptions {
  /** livez checks that fail within this long after creation are reported as passing. */
  livezGracePeriodMs?: number;
  /** Told which checks failed and why (the responses withhold the reasons), e.g. to log them. */
  onFailure?: (endpoint: HealthEndpoint, failures: HealthFailure[]) => void;
  /** The clock, for tests. */
  now?: () => number;
}

/** A check that failed and its error message. */
export interface HealthFailure {
  name: string;
  reason: string;
  /**
   * The failure says the server is starting or stopping (a post-start hook not finished yet, the
   * shutdown check), which is what /readyz is for, not that something is wrong.
   */
  pending: boolean;
}

/** Thrown by the checks whose failure means "not yet" or "going away" (HealthFailure.pending). */
class PendingCheck extends Error {}

interface NamedCheck {
  name: string;
  check: HealthCheck;
}

const ENDPOINTS: HealthEndpoint[] = ['healthz', 'livez', 'readyz'];

/** Health checks with the built-in ping, log and (readyz only) shutdown checks. */
export function newHealthChecks(options: HealthChecksOptions = {}): HealthChecks {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const grace = options.livezGracePeriodMs ?? 0;
  const checks: Record<HealthEndpoint, NamedCheck[]> = { healthz: [], livez: [], readyz: [] };
  let shuttingDown = false;
  const shutdownCheck: NamedCheck = {
    name: 'shutdown',
    check: () => {
      if (shuttingDown) throw new PendingCheck('process is shutting down');
    },
  };

  const add = (name: string, check: HealthCheck, on: HealthEndpoint[]): void => {
    for (const endpoint of on) {
      if (name === shutdownCheck.name || checks[endpoint].some((c) => c.name === name)) {
        throw new Error(`health check ${JSON.stringify(name)} is already installed on /${endpoint}`);
      }
    }
    for (const endpoint of on) {
      const inGrace = endpoint === 'livez' && grace > 0;
      checks[endpoint].push({ name, check: inGrace ? withGracePeriod(check, () => now() - startedAt < grace) : check });
    }
  };
  add('ping', () => {}, ENDPOINTS);
  add('log', () => {}, ENDPOINTS);

  /** The checks an endpoint runs, in the order they were added; shutdown comes last on readyz. */
  const listFor = (endpoint: HealthEndpoint): NamedCheck[] =>
    endpoint === 'readyz' ? [...checks.readyz, shutdownCheck] : checks[endpoint];

  return {
    add,
    addPostStartHook(name) {
      let done = false;
      add(
        `poststarthook/${name}`,
        () => {
          if (!done) throw new PendingCheck('not finished');
        },
        ENDPOINTS,
      );
      return () => {
        done = true;
      };
    },
    startShutdown() {
      shuttingDown = true;
    },
    handle(req, res) {
      // Every request passes here first: only health paths pay for parsing the URL.
      if (!/^\/(healthz|livez|readyz)(?:[/?]|$)/.test(req.url ?? '/')) return false;
      const url = new URL(req.url ?? '/', 'http://health');
      const match = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(url.pathname);
      if (!match) return false;
      const endpoint = match[1] as HealthEndpoint;
      const list = listFor(endpoint);
      if (match[2] === undefined) {
        void serveAll(endpoint, list, url.searchParams, res, options.onFailure);
        return true;
      }
      const one = list.find((c) => c.name === match[2]);
      if (one) void serveOne(one, res);
      else reply(res, 404, '404 page not found\n');
      return true;
    },
  };
}

/** Runs `check` only once `inGrace` says the grace period is over; passes before that. */
function withGracePeriod(check: HealthCheck, inGrace: () => boolean): HealthCheck {
  return async () => {
    try {
      await check();
    } catch (err) {
      if (!inGrace()) throw err;
    }
  };
}

async function run(check: HealthCheck): Promise<Error | undefined> {
  try {
    await check();
    return undefined;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

async function serveAll(
  endpoint: HealthEndpoint,
  list: NamedCheck[],
  query: URLSearchParams,
  res: ServerResponse,
  onFailure: HealthChecksOptions['onFailure'],
): Promise<void> {
  const excluded = new Set(query.getAll('exclude'));
  const results = await Promise.all(list.map((c) => (excluded.has(c.name) ? undefined : run(c.check))));
  let out = '';
  const failures: HealthFailure[] = [];
  list.forEach((c, i) => {
    const err = results[i];
    if (excluded.delete(c.name)) out += `[+]${c.name} excluded: ok\n`;
    else if (err) {
      out += `[-]${c.name} failed: reason withheld\n`;
      failures.push({ name: c.name, reason: err.message, pending: err instanceof PendingCheck });
    } else out += `[+]${c.name} ok\n`;
  });
  if (excluded.size > 0) {
    const names = [...excluded]
      .sort()
      .map((n) => JSON.stringify(n))
      .join(', ');
    out += `warn: some health checks cannot be excluded: no matches for ${names}\n`;
  }
  if (failures.length > 0) {
    onFailure?.(endpoint, failures);
    reply(res, 500, `${out}${endpoint} check failed\n`);
  } else if (!query.has('verbose')) reply(res, 200, 'ok');
  else reply(res, 200, `${out}${endpoint} check passed\n`);
}

async function serveOne(c: NamedCheck, res: ServerResponse): Promise<void> {
  const err = await run(c.check);
  if (err) reply(res, 500, `internal server error: ${err.message}\n`);
  else reply(res, 200, 'ok');
}

function reply(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
