/**
 * One HTTPS POST of an AdmissionReview to a webhook: the webhook's CA bundle (else the system's),
 * the service's DNS name as TLS server name, a deadline, and a cap on the answer's size. Every failure
 * is a WebhookCallError with a message that says what went wrong; nothing here blocks the event loop.
 */
import { request, Agent } from 'node:https';

/** Kubernetes' limit on a webhook's answer. */
export const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

export class WebhookCallError extends Error {
  override name = 'WebhookCallError';
}

export interface CallTarget {
  url: URL;
  /** PEM CA bundle; absent = the system roots. */
  ca?: string;
  /** TLS server name (service DNS name) when the URL's host is an IP. */
  servername?: string;
  /** Client credentials (webhook kubeConfigFile): a certificate and key, and/or an Authorization header. */
  credentials?: { cert?: string; key?: string; authorization?: string };
}

const agents = new Map<string, Agent>();

function agentFor(t: CallTarget): Agent {
  const key = `${t.ca ?? ''}\u0000${t.servername ?? ''}\u0000${t.credentials?.cert ?? ''}`;
  let agent = agents.get(key);
  if (!agent) {
    const { cert, key: clientKey } = t.credentials ?? {};
    agent = new Agent({ keepAlive: true, ca: t.ca, servername: t.servername, cert, key: clientKey, maxSockets: 64 });
    agents.set(key, agent);
  }
  return agent;
}

export function postReview(t: CallTarget, body: Buffer, timeoutMs: number): Promise<unknown> {
  const where = `Post "${t.url.href}"`;
  return new Promise((resolve, reject) => {
    const req = request(
      t.url,
      {
        method: 'POST',
        agent: agentFor(t),
        servername: t.servername,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'Content-Length': body.length,
          ...(t.credentials?.authorization ? { Authorization: t.credentials.authorization } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_RESPONSE_BYTES) {
            req.destroy(new WebhookCallError(`${where}: the response is larger than ${MAX_RESPONSE_BYTES} bytes`));
            return;
          }
          chunks.push(c);
        });
        res.on('error', (err) => reject(new WebhookCallError(`${where}: ${err.message}`)));
        res.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) > 299) {
            reject(new WebhookCallError(`${where}: the server responded with status ${res.statusCode}: ${text.slice(0, 200)}`));
            return;
          }
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new WebhookCallError(`${where}: the response is not JSON: ${JSON.stringify(text.slice(0, 100))}`));
          }
        });
      },
    );
    const timer = setTimeout(
      () => req.destroy(new WebhookCallError(`${where}: context deadline exceeded (timeout ${timeoutMs / 1000}s)`)),
      timeoutMs,
    );
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err instanceof WebhookCallError ? err : new WebhookCallError(`${where}: ${err.message}`));
    });
    req.end(body);
  });
}
