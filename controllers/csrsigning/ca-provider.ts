/**
 * A signer's CA from its certificate and key files, read again when either file changes (Kubernetes
 * reloads rotated signing CAs the same way).
 */
import { readFileSync, statSync } from 'node:fs';
import { CertificateAuthority } from './certificate-authority.js';

export interface CaFiles {
  certFile: string;
  keyFile: string;
}

export class CaProvider {
  private loaded?: { stamp: string; ca: CertificateAuthority };

  constructor(readonly files: CaFiles) {}

  /** The CA as the files hold it now; throws when they cannot be read or do not match. */
  current(): CertificateAuthority {
    const stamp = [this.files.certFile, this.files.keyFile].map((f) => `${statSync(f).mtimeMs}:${statSync(f).size}`).join('|');
    if (this.loaded?.stamp !== stamp) {
      const ca = new CertificateAuthority(readFileSync(this.files.certFile, 'utf8'), readFileSync(this.files.keyFile, 'utf8'));
      this.loaded = { stamp, ca };
    }
    return this.loaded.ca;
  }
}
