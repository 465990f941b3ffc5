/**
 * A stand-in for the API server's SubjectAccessReviews until authorization serves them: an HTTPS
 * front (the server's own serving certificate) that answers POSTs of subjectaccessreviews from a
 * test policy and records them, and forwards every other request to the real server unchanged. A
 * kubeconfig pointing at it lets a controller manager run against the real server.
 */
import { readFileSync } from 'node:fs';
import { Agent, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import httpProxy from 'http-proxy';
import { writeAdminKubeconfig } from '../../scripts/cluster-files.js';

export interface ReviewSpec {
  user: string;
  uid?: string;
  groups?: string[];
  resourceAttributes: Record<string, string>;
}

export interface ReviewFront {
  url: string;
  /** An admin kubeconfig (the server's token) that points at the front. */
  kubeconfig: string;
  reviews: ReviewSpec[];
  close(): Promise<void>;
}

/**
 * Starts the front for a server whose certificates are in `certDir`; `allow` decides each review.
 * Writes its kubeconfig to `kubeconfigFile`.
 */
export async function startReviewFront(opts: {
  server: { url: string; ca: string; token: string };
  certDir: string;
  kubeconfigFile: string;
  domain?: string;
  allow(spec: ReviewSpec): boolean;
}): Promise<ReviewFront> {
  const sarPath = `/apis/authorization.${opts.domain ?? 'orch.io'}/v1/subjectaccessreviews`;
  const reviews: ReviewSpec[] = [];
  const proxy = httpProxy.createProxyServer({ target: opts.server.url, agent: new Agent({ ca: opts.server.ca }), secure: true });
  proxy.on('error', (_err, _req, res) => {
    if ('writeHead' in res && !res.headersSent) res.writeHead(502);
    res.end();
  });
  const front = createServer(
    { cert: readFileSync(join(opts.certDir, 'apiserver.crt')), key: readFileSync(join(opts.certDir, 'apiserver.key')) },
    (req, res) => {
      if (req.method !== 'POST' || req.url?.split('?')[0] !== sarPath) return proxy.web(req, res);
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const review = JSON.parse(body);
        reviews.push(review.spec);
        res.writeHead(201, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ ...review, status: { allowed: opts.allow(review.spec) } }));
      });
    },
  );
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(front.address() as AddressInfo).port}`;
  writeAdminKubeconfig(opts.kubeconfigFile, url, { caPem: opts.server.ca, token: opts.server.token });
  return {
    url,
    kubeconfig: opts.kubeconfigFile,
    reviews,
    async close() {
      front.closeAllConnections();
      await new Promise((r) => front.close(r));
      proxy.close();
    },
  };
}
