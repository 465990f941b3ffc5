/**
 * Client-certificate authentication (--client-ca-file): a TLS client certificate that chains to
 * one of the CAs — directly or through intermediates the client sent — names the user by its
 * CommonName and the groups by its Organization values.
 */
import type { IncomingMessage } from 'node:http';
import { createHash, X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import { AuthenticationError, type RequestAuthenticator } from './interfaces.js';

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_EXTENDED_KEY_USAGE = '2.5.29.37.0';

/** Authenticates requests by verified client certificates; `caPem` may hold several CA certificates. */
export function newX509Authenticator(caPem: string): RequestAuthenticator {
  const verifier = newClientCertVerifier(caPem);
  return {
    async authenticate(req: IncomingMessage) {
      const peer = verifier(req);
      if (!peer) return null;
      const cn = firstValue(peer.subject?.CN);
      if (!cn) return null; // kube's CommonNameUserConversion: no CN, no user
      const groups = allValues(peer.subject?.O);
      if ([cn, ...groups].some(hasControlCharacters)) {
        throw new AuthenticationError(
          `certificate ${describe(new X509Certificate(peer.raw))} names a user or group with control characters`,
        );
      }
      return { name: cn, groups };
    },
  };
}

/**
 * The request's client certificate when it chains to one of the CAs in `caPem` for client
 * authentication; null when the request has none; AuthenticationError when it does not verify.
 */
export function newClientCertVerifier(caPem: string): (req: IncomingMessage) => DetailedPeerCertificate | null {
  const roots = splitPem(caPem).map((pem) => new X509Certificate(pem));
  if (roots.length === 0) throw new Error('client CA bundle holds no certificate');
  // A chain that verified stays verified until its earliest expiry: remembered by its bytes' hash,
  // so a client's every request does not parse and check its certificates again.
  const verified = new Map<string, number>();
  return (req) => {
    const peer = peerCertificate(req);
    if (!peer) return null;
    const hash = createHash('sha256');
    for (
      let c: DetailedPeerCertificate | undefined = peer, n = 0;
      c?.raw && n < 10;
      c = c.issuerCertificate === c ? undefined : c.issuerCertificate, n++
    ) {
      hash.update(c.raw);
    }
    const key = hash.digest('base64url');
    const now = Date.now();
    const until = verified.get(key);
    if (until !== undefined && now <= until) return peer;
    const chain = presentedChain(peer);
    const problem = verify(chain, roots, now);
    if (problem) throw new AuthenticationError(`verifying certificate ${describe(chain[0])} failed: x509: ${problem}`);
    if (verified.size >= 10_000) verified.delete(verified.keys().next().value as string);
    verified.set(key, Math.min(...chain.map((c) => Date.parse(c.validTo)), ...roots.map((r) => Date.parse(r.validTo))));
    return peer;
  };
}

/** The CommonName of a verified certificate. */
export function commonName(peer: DetailedPeerCertificate): string | undefined {
  return firstValue(peer.subject?.CN);
}

function peerCertificate(req: IncomingMessage): DetailedPeerCertificate | undefined {
  const socket = req.socket as Partial<TLSSocket>;
  if (typeof socket.getPeerCertificate !== 'function') return undefined; // not TLS
  const peer = socket.getPeerCertificate(true);
  return peer?.raw ? peer : undefined;
}

/** The certificates the client sent, leaf first. */
function presentedChain(peer: DetailedPeerCertificate): X509Certificate[] {
  const chain: X509Certificate[] = [];
  const seen = new Set<DetailedPeerCertificate>();
  for (let c: DetailedPeerCertificate | undefined = peer; c?.raw && !seen.has(c); c = c.issuerCertificate) {
    seen.add(c);
    chain.push(new X509Certificate(c.raw));
  }
  return chain;
}

/** Why the chain does not verify against `roots` at time `now` for client authentication, or undefined when it does. */
function verify(chain: X509Certificate[], roots: X509Certificate[], now: number): string | undefined {
  const leaf = chain[0];
  const usages = leaf.keyUsage;
  if (usages && usages.length > 0 && !usages.includes(CLIENT_AUTH) && !usages.includes(ANY_EXTENDED_KEY_USAGE)) {
    return 'certificate specifies an incompatible key usage';
  }
  const intermediates = chain.slice(1).filter((c) => c.ca);
  let current = leaf;
  for (let depth = 0; depth <= intermediates.length; depth++) {
    if (!validAt(current, now)) return 'certificate has expired or is not yet valid';
    if (roots.some((root) => validAt(root, now) && signedBy(current, root))) return undefined;
    const next = intermediates.find((c) => c !== current && signedBy(current, c));
    if (!next) break;
    current = next;
  }
  return 'certificate signed by unknown authority';
}

function validAt(cert: X509Certificate, now: number): boolean {
  return Date.parse(cert.validFrom) <= now && now <= Date.parse(cert.validTo);
}

function signedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
}

function describe(cert: X509Certificate): string {
  const subject = cert.subject
    .replaceAll('\n', ',')
    .replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return `"${subject}" [serial number=${cert.serialNumber}]`;
}

function hasControlCharacters(s: string): boolean {
  return /[\x00-\x1f\x7f]/.test(s);
}

function firstValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function allValues(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? [...v] : [v];
}

function splitPem(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}
