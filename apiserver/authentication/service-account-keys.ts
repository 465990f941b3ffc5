/**
 * Keys that verify service-account tokens: PEM files holding RSA or ECDSA keys, public or private (a
 * private key verifies with its public half), several per file, each with Kubernetes' key id
 * (api/serviceaccount/signing-key.ts).
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { keyId, signingAlgorithm } from '../api/serviceaccount/signing-key.js';

/** A verification key and what it accepts. */
export interface VerificationKey {
  key: KeyObject;
  kid: string;
  /** The JWS algorithm of the key (RS256, ES256, ES384, ES512). */
  algorithm: string;
}

const PEM_BLOCK = /-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----/g;

/** The public keys in a PEM text; `source` names it in errors. */
export function parsePublicKeys(pem: string, source: string): VerificationKey[] {
  const keys: VerificationKey[] = [];
  for (const m of pem.matchAll(PEM_BLOCK)) {
    const type = m[1];
    let key: KeyObject;
    if (type.endsWith('PRIVATE KEY')) key = createPublicKey(createPrivateKey(m[0]));
    else if (type === 'PUBLIC KEY' || type === 'RSA PUBLIC KEY' || type === 'CERTIFICATE') key = createPublicKey(m[0]);
    else continue;
    keys.push({ key, kid: keyId(key), algorithm: signingAlgorithm(key, source) });
  }
  if (keys.length === 0) throw new Error(`${source}: no RSA or ECDSA key found`);
  return keys;
}
