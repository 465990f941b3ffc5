/**
 * A real admission webhook for tests: HTTPS on a free port (all addresses) with its own CA (so a
 * clientConfig's caBundle is needed to reach it), answering each AdmissionReview with what the test's
 * handler returns, and remembering the reviews it saw.
 */
import { createServer, type Server } from 'node:https';
import { mkdtempSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { ensureCA, ensureServingCert } from '../../apiserver/component-base/certs/certs.js';

export interface Review {
  apiVersion: string;
  kind: string;
  request: {
    uid: string;
    operation: string;
    name?: string;
    namespace?: string;
    object?: { metadata: { name?: string; labels?: Record<string, string> }; [k: string]: unknown } | null;
    resource: { group: string; version: string; resource: string };
    kind: { group: string; version: string; kind: string };
    [k: string]: unknown;
  };
}

/** What the handler answers: a response (uid is filled in), or raw text / a delay for misbehaviour tests. */
export type Answer =
  | { allowed: boolean; status?: Record<string, unknown>; patch?: unknown[]; warnings?: string[]; uid?: string }
  | { raw: string }
  | { delayMs: number; answer: Answer };

export interface WebhookServer {
  url(path?: string): string;
  /** This machine's first non-loopback IPv4 address, which the server also listens on (Endpoints refuse loopback). */
  externalIP: string;
  caBundle: string;
  port: number;
  reviews: Review[];
  /** The Authorization header of each review, in order ('' when none). */
  authorizations: string[];
  close(): Promise<void>;
}

export async function startWebhookServer(handle: (review: Review, path: string) => Answer, hosts: string[] = []): Promise<WebhookServer> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-webhook-'));
  const ca = ensureCA(dir);
  const externalIP = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && !i.internal && i.family === 'IPv4')?.address;
  if (!externalIP) throw new Error('no non-loopback IPv4 address on this machine for a webhook behind Endpoints');
  const pair = ensureServingCert(dir, ca, [...hosts, externalIP]);
  const reviews: Review[] = [];
  const authorizations: string[] = [];
  const respond = async (review: Review, answer: Answer): Promise<string> => {
    if ('delayMs' in answer) {
      await new Promise((r) => setTimeout(r, answer.delayMs));
      return respond(review, answer.answer);
    }
    if ('raw' in answer) return answer.raw;
    const { patch, ...rest } = answer;
    const response = {
      uid: review.request.uid,
      ...rest,
      ...(patch ? { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') } : {}),
    };
    return JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response });
  };
  const server: Server = createServer({ cert: pair.certPem, key: pair.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Review;
      reviews.push(review);
      authorizations.push(req.headers.authorization ?? '');
      const text = await respond(review, handle(review, req.url ?? '/'));
      if (!res.destroyed) res.writeHead(200, { 'Content-Type': 'application/json' }).end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '0.0.0.0', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = '/') => `https://127.0.0.1:${port}${path}`,
    externalIP,
    caBundle: Buffer.from(ca.certPem).toString('base64'),
    port,
    reviews,
    authorizations,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
