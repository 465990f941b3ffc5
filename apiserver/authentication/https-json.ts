/**
 * One JSON request over HTTPS, for the authenticators that ask another server (token webhook,
 * OIDC discovery and keys): CA pinning, optional client certificate and bearer token, a timeout and
 * a size limit. Resolves with the status and parsed body; rejects on network errors, timeouts and
 * bodies that are not JSON.
 */
import { request } from 'node:https';

export interface HttpsJsonOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  /** PEM CA bundle to trust instead of the system's. */
  ca?: string;
  cert?: string;
  key?: string;
  token?: string;
  timeoutMs?: number;
}

const MAX_BODY_BYTES = 4 << 20;

export function httpsJson(url: string, opts: HttpsJsonOptions = {}): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
    const target = new URL(url);
    if (target.protocol !== 'https:') {
      reject(new Error(`${target.origin}: only https URLs are allowed`));
      return;
    }
    const req = request(
      target,
      { method: opts.method ?? 'GET', headers, ca: opts.ca, cert: opts.cert, key: opts.key, timeout: opts.timeoutMs ?? 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BODY_BYTES) req.destroy(new Error(`${target.origin}: answer larger than ${MAX_BODY_BYTES} bytes`));
          else chunks.push(c);
        });
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
          } catch {
            reject(new Error(`${target.origin}: answer is not JSON (status ${res.statusCode})`));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${target.origin}: timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}
