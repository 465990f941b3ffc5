/** Flags that let a test server issue service-account tokens (serviceaccounts/<name>/token): a fresh P-256 key in `dir`. */
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function serviceAccountSigningArgs(dir: string, issuer = 'https://orch.test'): string[] {
  const pair = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'sec1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  writeFileSync(join(dir, 'sa-signing.key'), pair.privateKey);
  return [`--service-account-issuer=${issuer}`, `--service-account-signing-key-file=${join(dir, 'sa-signing.key')}`];
}
