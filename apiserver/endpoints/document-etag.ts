import { createHash } from 'node:crypto';

/** The ETag of a served document (discovery, OpenAPI v2): its SHA-512 in upper-case hex, quoted (kube-apiserver's). */
export function documentETag(body: string | Buffer): string {
  return `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"`;
}
