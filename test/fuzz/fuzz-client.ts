/**
 * The fuzz suite's HTTPS sender: any method, path, headers and body bytes, timed from the request to
 * the last byte of the answer (to the response headers for a watch, which it reads briefly and
 * closes). Nothing is parsed for it to throw on: the caller gets status, headers and bytes, or the
 * transport error; a request not answered within `abortMs` is aborted and reported as such, saying
 * whether its headers had come (a stream read as a whole answer never ends).
 */
import { Agent, request as httpsRequest } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';

export interface FuzzRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Read the answer for this long after its headers, then close it (watches). */
  streamMs?: number;
}

export interface FuzzAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
  ms: number;
  /** The transport error, when there was no (complete) answer. */
  error?: string;
  /** The node HTTP client refused the request before sending it (an invalid header value). */
  refused?: boolean;
}

export interface FuzzClient {
  send(req: FuzzRequest): Promise<FuzzAnswer>;
  close(): void;
}

export function newFuzzClient(opts: {
  url: string;
  ca: string;
  token?: string;
  abortMs: number;
  /** The milliseconds of a span this process itself was stalled: not counted toward `abortMs`. */
  stalledWithin?: (from: number, to: number) => number;
}): FuzzClient {
  const agent = new Agent({ ca: opts.ca, keepAlive: true, maxSockets: 32 });
  const base = new URL(opts.url);
  const send = (req: FuzzRequest) =>
    new Promise<FuzzAnswer>((resolve) => {
      const start = performance.now();
      const headers: Record<string, string> = {
        Accept: 'application/json',
        ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}),
        ...req.headers,
      };
      if (req.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(req.body));
      let settled = false;
      /** When the answer's headers came (a request aborted after them never ended its body). */
      let headersMs: number | undefined;
      const done = (a: Omit<FuzzAnswer, 'ms'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...a, ms: performance.now() - start });
      };
      let r: ReturnType<typeof httpsRequest>;
      try {
        r = httpsRequest({ host: base.hostname, port: base.port, path: req.path, method: req.method, headers, agent }, (res) => {
          headersMs = performance.now() - start;
          const chunks: Buffer[] = [];
          const finish = (error?: string) =>
            done({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks), ...(error ? { error } : {}) });
          if (req.streamMs !== undefined && res.statusCode === 200) {
            res.on('data', (c: Buffer) => chunks.length < 64 && chunks.push(c));
            res.on('error', () => {});
            setTimeout(() => {
              if (settled) return;
              settled = true;
              clearTimeout(timer);
              res.destroy();
              resolve({ status: 200, headers: res.headers, bytes: Buffer.concat(chunks), ms: headersMs! });
            }, req.streamMs);
            res.on('end', () => finish());
            return;
          }
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => finish());
          res.on('error', (err) => finish(err.message));
          res.on('aborted', () => finish('aborted'));
        });
      } catch (err) {
        resolve({ status: 0, headers: {}, bytes: Buffer.alloc(0), ms: 0, error: (err as Error).message, refused: true });
        return;
      }
      const abort = () => {
        if (settled) return;
        const waited = performance.now() - start - (opts.stalledWithin?.(start, performance.now()) ?? 0);
        if (waited < opts.abortMs) {
          // This process was stalled meanwhile: the server gets its whole time.
          timer = setTimeout(abort, opts.abortMs - waited);
          return;
        }
        const error =
          headersMs === undefined
            ? `no answer within ${opts.abortMs} ms`
            : `the answer's headers came after ${Math.round(headersMs)} ms, its end not within ${opts.abortMs} ms`;
        done({ status: 0, headers: {}, bytes: Buffer.alloc(0), error });
        r.destroy();
      };
      let timer = setTimeout(abort, opts.abortMs);
      r.on('error', (err) =>
        done({ status: 0, headers: {}, bytes: Buffer.alloc(0), error: `${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}` }),
      );
      r.end(req.body);
    });
  return { send, close: () => agent.destroy() };
}

/** The answer's JSON body, or undefined when it is not JSON. */
export function jsonOf(a: FuzzAnswer): any {
  if (!(a.headers['content-type'] ?? '').includes('json')) return undefined;
  try {
    return JSON.parse(a.bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}
