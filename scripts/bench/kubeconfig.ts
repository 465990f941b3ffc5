/**
 * The server and credentials of a kubeconfig's current context: a server URL, the CA to trust, and a
 * bearer token or a client certificate (inline `*-data` or file references, as kubectl reads them).
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';

export interface ApiTarget {
  server: string;
  ca?: Buffer;
  token?: string;
  cert?: Buffer;
  key?: Buffer;
  insecure?: boolean;
}

interface Named<T> {
  name: string;
  [k: string]: T | string;
}

export function loadKubeconfig(file: string): ApiTarget {
  const doc = parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const pick = <T>(list: unknown, name: unknown, field: string): T => {
    const found = ((list as Named<T>[] | undefined) ?? []).find((e) => e.name === name);
    if (!found) throw new Error(`${file}: no ${field} named ${JSON.stringify(name)}`);
    return found[field] as T;
  };
  const context = pick<Record<string, string>>(doc.contexts, doc['current-context'], 'context');
  const cluster = pick<Record<string, unknown>>(doc.clusters, context.cluster, 'cluster');
  const user = pick<Record<string, string>>(doc.users, context.user, 'user');
  const base = dirname(file);
  const bytes = (data: unknown, path: unknown): Buffer | undefined => {
    if (typeof data === 'string') return Buffer.from(data, 'base64');
    if (typeof path === 'string') return readFileSync(isAbsolute(path) ? path : join(base, path));
    return undefined;
  };
  return {
    server: String(cluster.server),
    ca: bytes(cluster['certificate-authority-data'], cluster['certificate-authority']),
    insecure: cluster['insecure-skip-tls-verify'] === true,
    token: user.token ?? (user.tokenFile ? readFileSync(user.tokenFile, 'utf8').trim() : undefined),
    cert: bytes(user['client-certificate-data'], user['client-certificate']),
    key: bytes(user['client-key-data'], user['client-key']),
  };
}
