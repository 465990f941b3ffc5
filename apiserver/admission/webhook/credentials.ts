/**
 * Client credentials for calling webhooks, from the `kubeConfigFile` of the webhook plugins'
 * configuration (WebhookAdmissionConfiguration): a kubeconfig whose `users` are named after the
 * webhooks they serve. As Kubernetes matches them: the URL's `host:port` (port 443 may be left out),
 * a service's `<name>.<namespace>.svc` (with `:port` when not 443), then the most specific
 * `*.suffix` wildcard, then `*`.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { assertConfigType, assertKubeconfigType } from '../../api/config-versions.js';
import type { ApiDomain } from '../../api/domain.js';

export interface Credentials {
  cert?: string;
  key?: string;
  authorization?: string;
}

interface KubeconfigUser {
  name?: string;
  user?: {
    'client-certificate-data'?: string;
    'client-key-data'?: string;
    'client-certificate'?: string;
    'client-key'?: string;
    token?: string;
    username?: string;
    password?: string;
  };
}

export type CredentialsFor = (hostPort: string, port: number) => Credentials | undefined;

/** Reads the plugin configuration's kubeConfigFile; no configuration → no credentials. */
export function readWebhookCredentials(config: unknown, domain: ApiDomain): CredentialsFor {
  if (config !== undefined && config !== null) assertConfigType('WebhookAdmission', config, domain, '', { allowUntyped: true });
  const file = (config as { kubeConfigFile?: string } | undefined)?.kubeConfigFile;
  if (!file) return () => undefined;
  const kc = parse(readFileSync(file, 'utf8')) as { users?: KubeconfigUser[] } | null;
  assertKubeconfigType(kc, `kubeConfigFile ${file}`);
  const base = dirname(file);
  const byName = new Map<string, Credentials>();
  for (const u of kc?.users ?? []) {
    if (!u.name || !u.user) continue;
    const x = u.user;
    const pem = (data?: string, path?: string) =>
      data ? Buffer.from(data, 'base64').toString('utf8') : path ? readFileSync(resolve(base, path), 'utf8') : undefined;
    byName.set(u.name, {
      cert: pem(x['client-certificate-data'], x['client-certificate']),
      key: pem(x['client-key-data'], x['client-key']),
      authorization: x.token
        ? `Bearer ${x.token}`
        : x.username !== undefined
          ? `Basic ${Buffer.from(`${x.username}:${x.password ?? ''}`).toString('base64')}`
          : undefined,
    });
  }
  return (host, port) => {
    const names = port === 443 ? [`${host}:${port}`, host] : [`${host}:${port}`];
    for (const n of names) if (byName.has(n)) return byName.get(n);
    // The longest matching wildcard wins.
    const parts = host.split('.');
    for (let i = 1; i < parts.length; i++) {
      const wildcard = `*.${parts.slice(i).join('.')}`;
      if (byName.has(wildcard)) return byName.get(wildcard);
    }
    return byName.get('*');
  };
}
