/**
 * Token webhook (--authentication-token-webhook-config-file): the token is POSTed as a TokenReview
 * (authentication.k8s.io v1 or v1beta1, --authentication-token-webhook-version) to the server the
 * kubeconfig-format file names; its answer of the same apiVersion says who the user is. Decisions
 * (accepted and rejected) are remembered per token for --authentication-token-webhook-cache-ttl; a
 * failed call is a rejection with a generic message and is not remembered.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { assertKubeconfigType } from '../api/config-versions.js';
import { httpsJson, type HttpsJsonOptions } from './https-json.js';
import { AuthenticationError, type TokenAuthenticator, type UserInfo } from './interfaces.js';

export interface TokenWebhookConfig {
  /** The kubeconfig-format file naming the webhook server and the credentials to call it with. */
  configFile: string;
  version: 'v1' | 'v1beta1';
  cacheTtlMs: number;
  now?: () => number;
}

export interface WebhookTarget extends HttpsJsonOptions {
  server: string;
}

/** Reads a kubeconfig-format webhook configuration: its current (or first) context's cluster and user. */
export function readWebhookConfig(file: string): WebhookTarget {
  type Named<K extends string> = { name?: string } & { [key in K]?: Record<string, string> };
  const doc = (parse(readFileSync(file, 'utf8')) ?? {}) as {
    'current-context'?: string;
    contexts?: Named<'context'>[];
    clusters?: Named<'cluster'>[];
    users?: Named<'user'>[];
  };
  assertKubeconfigType(doc, file);
  const pick = <K extends string>(list: Named<K>[] | undefined, name: string | undefined) =>
    list?.find((e) => e.name === name) ?? list?.[0];
  const context = pick(doc.contexts, doc['current-context'])?.context;
  const cluster = pick(doc.clusters, context?.cluster)?.cluster;
  const user = pick(doc.users, context?.user)?.user ?? {};
  if (!cluster?.server) throw new Error(`${file}: no cluster with a server`);
  const base = dirname(file);
  const pem = (data?: string, path?: string) =>
    data ? Buffer.from(data, 'base64').toString('utf8') : path ? readFileSync(resolve(base, path), 'utf8') : undefined;
  return {
    server: cluster.server,
    ca: pem(cluster['certificate-authority-data'], cluster['certificate-authority']),
    cert: pem(user['client-certificate-data'], user['client-certificate']),
    key: pem(user['client-key-data'], user['client-key']),
    token: user.token,
  };
}

export function newTokenWebhookAuthenticator(config: TokenWebhookConfig): TokenAuthenticator {
  const target = readWebhookConfig(config.configFile);
  const now = config.now ?? Date.now;
  const apiVersion = `authentication.k8s.io/${config.version}`;
  const cache = new Map<string, { user: UserInfo | null; error?: string; until: number }>();
  return {
    async authenticateToken(token, audiences) {
      const key = createHash('sha256')
        .update(token)
        .update('\0')
        .update((audiences ?? []).join(','))
        .digest('base64url');
      let entry = cache.get(key);
      if (!entry || entry.until <= now()) {
        cache.delete(key);
        const spec: Record<string, unknown> = { token };
        if (audiences && audiences.length > 0) spec.audiences = audiences;
        let answer: { status: number; body: unknown };
        try {
          answer = await httpsJson(target.server, { ...target, method: 'POST', body: { apiVersion, kind: 'TokenReview', spec } });
        } catch {
          throw new AuthenticationError('webhook token authentication failed');
        }
        const review = answer.body as {
          apiVersion?: string;
          status?: {
            authenticated?: boolean;
            user?: { username?: unknown; uid?: unknown; groups?: unknown; extra?: unknown };
            error?: string;
          };
        };
        if (answer.status < 200 || answer.status > 299 || review?.apiVersion !== apiVersion) {
          throw new AuthenticationError('webhook token authentication failed');
        }
        const s = review.status ?? {};
        const user: UserInfo | null =
          s.authenticated && typeof s.user?.username === 'string' && s.user.username !== ''
            ? {
                name: s.user.username,
                ...(typeof s.user.uid === 'string' && s.user.uid ? { uid: s.user.uid } : {}),
                groups: Array.isArray(s.user.groups) ? s.user.groups.filter((g): g is string => typeof g === 'string') : [],
                ...(s.user.extra && typeof s.user.extra === 'object' ? { extra: s.user.extra as Record<string, string[]> } : {}),
              }
            : null;
        entry = { user, error: typeof s.error === 'string' ? s.error : undefined, until: now() + config.cacheTtlMs };
        if (cache.size >= 10_000) cache.delete(cache.keys().next().value as string);
        cache.set(key, entry);
      }
      if (!entry.user) throw new AuthenticationError(entry.error ? `webhook: ${entry.error}` : 'webhook rejected the token');
      return structuredClone(entry.user);
    },
  };
}
