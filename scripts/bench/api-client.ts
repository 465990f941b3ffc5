/**
 * A lean HTTPS client for the benchmark: keep-alive connections (one per concurrent caller), JSON
 * bodies as strings, and watch streams handed over as the raw bytes that arrive.
 */
import { Agent, request } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { ApiTarget } from './kubeconfig.js';

export interface ApiResponse {
  status: number;
  body: string;
}

export interface WatchStream {
  close(): void;
  /** Resolves when the server ends the stream (or it breaks). */
  ended: Promise<void>;
}

export class ApiClient {
  private readonly agent: Agent;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly target: ApiTarget,
    maxSockets: number,
  ) {
    this.agent = new Agent({
      keepAlive: true,
      maxSockets,
      ca: target.ca,
      cert: target.cert,
      key: target.key,
      rejectUnauthorized: !target.insecure,
    });
    this.headers = { Accept: 'application/json', ...(target.token ? { Authorization: `Bearer ${target.token}` } : {}) };
  }

  request(method: string, path: string, body?: string, contentType = 'application/json'): Promise<ApiResponse> {
    return new Promise((resolve, reject) => {
      const headers =
        body === undefined
          ? this.headers
          : { ...this.headers, 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(body)) };
      const req = request(new URL(path, this.target.server), { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Opens a watch; `onData` gets the stream's bytes as they arrive. Rejects on a non-200 answer. */
  watch(path: string, onData: (chunk: Buffer) => void): Promise<WatchStream> {
    return new Promise((resolve, reject) => {
      const req = request(
        new URL(path, this.target.server),
        { method: 'GET', headers: this.headers, agent: this.agent },
        (res: IncomingMessage) => {
          if (res.statusCode !== 200) {
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => reject(new Error(`watch ${path}: ${res.statusCode} ${text}`)));
            return;
          }
          res.on('data', onData);
          const ended = new Promise<void>((done) => {
            res.on('end', done);
            res.on('close', done);
            res.on('error', () => done());
          });
          resolve({ close: () => req.destroy(), ended });
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Throws unless the response has the expected status. */
export function expectStatus(res: ApiResponse, status: number, what: string): ApiResponse {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${res.body.slice(0, 300)}`);
  return res;
}
