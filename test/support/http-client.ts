/**
 * A small HTTPS client for tests: bearer token, CA pinning, JSON bodies, raw access to status and
 * headers, and a watch reader that yields events as they arrive.
 */
import { request as httpsRequest, Agent } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

export interface ClientConfig {
  url: string;
  token?: string;
  ca: string;
  /** A client certificate and its key (PEM). */
  cert?: string;
  key?: string;
}

export interface Response<T = any> {
  status: number;
  headers: IncomingHttpHeaders;
  body: T;
  text: string;
  /** The body's bytes as received (protobuf answers). */
  bytes: Buffer;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (a string or Buffer) instead of JSON-encoding `body`. */
  raw?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface WatchStream {
  /** The next event (waits up to timeoutMs). */
  next(timeoutMs?: number): Promise<{ type: string; object: any }>;
  /** Events received within `ms` (default 200) that were not taken yet. */
  drain(ms?: number): Promise<{ type: string; object: any }[]>;
  status: number;
  close(): void;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
}

export interface TestClient {
  config: ClientConfig;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<Response<T>>;
  get<T = any>(path: string): Promise<Response<T>>;
  post<T = any>(path: string, body: unknown): Promise<Response<T>>;
  put<T = any>(path: string, body: unknown): Promise<Response<T>>;
  patch<T = any>(path: string, body: unknown, contentType: string): Promise<Response<T>>;
  delete<T = any>(path: string, body?: unknown): Promise<Response<T>>;
  watch(path: string, headers?: Record<string, string>): Promise<WatchStream>;
  close(): void;
}

export function newTestClient(config: ClientConfig): TestClient {
  const agent = new Agent({ ca: config.ca, cert: config.cert, key: config.key, keepAlive: true, maxSockets: 64 });
  const send = (method: string, path: string, opts: RequestOptions = {}) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
      const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
      if (config.token) headers.Authorization = `Bearer ${config.token}`;
      if (payload !== undefined) {
        headers['Content-Type'] = opts.contentType ?? 'application/json';
        headers['Content-Length'] = String(Buffer.byteLength(payload));
      }
      const req = httpsRequest(new URL(path, config.url), { method, headers, agent }, resolve);
      req.on('error', reject);
      req.end(payload);
    });
  const request = async (method: string, path: string, opts: RequestOptions = {}): Promise<Response> => {
    const res = await send(method, path, opts);
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    const text = bytes.toString('utf8');
    let body: unknown = text;
    if ((res.headers['content-type'] ?? '').includes('json') && text) body = JSON.parse(text);
    return { status: res.statusCode ?? 0, headers: res.headers, body, text, bytes };
  };
  return {
    config,
    request,
    get: (p) => request('GET', p),
    post: (p, body) => request('POST', p, { body }),
    put: (p, body) => request('PUT', p, { body }),
    patch: (p, body, contentType) => request('PATCH', p, { body, contentType }),
    delete: (p, body) => request('DELETE', p, { body }),
    async watch(path, headers) {
      const res = await send('GET', path, { headers });
      const queue: { type: string; object: any }[] = [];
      const waiters: (() => void)[] = [];
      let buf = '';
      let done = false;
      const ended = new Promise<void>((resolve) => {
        res.on('end', () => {
          done = true;
          waiters.splice(0).forEach((w) => w());
          resolve();
        });
        res.on('error', () => resolve());
        res.on('close', () => resolve());
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line) queue.push(JSON.parse(line));
        }
        waiters.splice(0).forEach((w) => w());
      });
      const stream: WatchStream = {
        status: res.statusCode ?? 0,
        ended,
        async next(timeoutMs = 5000) {
          const deadline = Date.now() + timeoutMs;
          while (queue.length === 0) {
            if (done) throw new Error('watch ended');
            const left = deadline - Date.now();
            if (left <= 0) throw new Error(`no watch event within ${timeoutMs}ms`);
            await new Promise<void>((r) => {
              const t = setTimeout(r, left);
              waiters.push(() => {
                clearTimeout(t);
                r();
              });
            });
          }
          return queue.shift()!;
        },
        async drain(ms = 200) {
          await new Promise((r) => setTimeout(r, ms));
          return queue.splice(0);
        },
        close() {
          res.destroy();
        },
      };
      if ((res.statusCode ?? 0) >= 300) {
        const chunks: string[] = [];
        res.on('data', (c) => chunks.push(String(c)));
        await ended;
        (stream as any).errorBody = JSON.parse(buf || chunks.join('') || '{}');
      }
      return stream;
    },
    close: () => agent.destroy(),
  };
}
