/** One JSON request over HTTPS authenticated by a client certificate (PEM certificate and key). */
import { request } from 'node:https';

export interface CertCredentials {
  ca: string;
  cert: string;
  key: string;
}

export function certRequest(
  url: string,
  creds: CertCredentials,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, path, method, ca: creds.ca, cert: creds.cert, key: creds.key, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
