/**
 * A small HTTPS server standing in for the outside world of authentication: an OIDC issuer
 * (discovery document and JWKS, RS256 and ES256 keys, rotatable) and a token webhook (answers
 * TokenReviews from a table, counts its calls). Its own CA signs its serving certificate.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { ensureCA, ensureServingCert } from '../../../apiserver/component-base/certs/certs.js';

export interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: KeyObject;
}

export interface IssuerServer {
  url: string;
  caPem: string;
  keys: SigningKey[];
  /** Signs an ID token with the key `kid` (default the first). */
  sign(claims: Record<string, unknown>, kid?: string): string;
  addKey(alg: 'RS256' | 'ES256'): SigningKey;
  /** TokenReview answers by token: a user, a rejection, or an HTTP status to fail with. */
  reviews: Map<string, { user?: Record<string, unknown>; error?: string; httpStatus?: number }>;
  webhookCalls: number;
  jwksFetches: number;
  close(): Promise<void>;
}

export async function startIssuerServer(): Promise<IssuerServer> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-issuer-'));
  const ca = ensureCA(dir);
  const serving = ensureServingCert(dir, ca, []);
  let server: Server;
  const self: IssuerServer = {
    url: '',
    caPem: ca.certPem,
    keys: [],
    reviews: new Map(),
    webhookCalls: 0,
    jwksFetches: 0,
    sign(claims, kid) {
      const key = kid ? self.keys.find((k) => k.kid === kid)! : self.keys[0];
      return jwt.sign(claims, key.privateKey, { algorithm: key.alg, keyid: key.kid });
    },
    addKey(alg) {
      const pair =
        alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const key = { kid: `${alg.toLowerCase()}-${self.keys.length + 1}`, alg, privateKey: pair.privateKey };
      self.keys.push(key);
      return key;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
  server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    const json = (code: number, body: unknown) => {
      res.writeHead(code, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/.well-known/openid-configuration') return json(200, { issuer: self.url, jwks_uri: `${self.url}/keys` });
    if (req.url === '/keys') {
      self.jwksFetches++;
      return json(200, {
        keys: self.keys.map((k) => ({ ...createPublicKey(k.privateKey).export({ format: 'jwk' }), kid: k.kid, alg: k.alg, use: 'sig' })),
      });
    }
    if (req.url === '/webhook' && req.method === 'POST') {
      self.webhookCalls++;
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const review = JSON.parse(body);
        const answer = self.reviews.get(review.spec?.token);
        if (answer?.httpStatus) return json(answer.httpStatus, { message: 'broken' });
        json(200, {
          apiVersion: review.apiVersion,
          kind: 'TokenReview',
          status: answer?.user ? { authenticated: true, user: answer.user } : { authenticated: false, error: answer?.error },
        });
      });
      return;
    }
    json(404, {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  self.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  self.addKey('RS256');
  self.addKey('ES256');
  return self;
}
