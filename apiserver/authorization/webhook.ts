/**
 * --authorization-mode=Webhook (Kubernetes' webhook authorizer): each decision is a POST of a
 * SubjectAccessReview (authorization.k8s.io/v1 or v1beta1, --authorization-webhook-version) to the
 * service of a kubeconfig (--authorization-webhook-config-file: server, CA, client certificate or
 * token). allowed → Allow, denied → Deny, else no opinion; answers are cached by request
 * (--authorization-webhook-cache-authorized-ttl 5m, -unauthorized-ttl 30s). A failed call is no
 * opinion with the failure as the reason, so later modes still decide.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { assertKubeconfigType } from '../api/config-versions.js';
import type { Attributes, AuthorizationResult, Authorizer, RuleResolver } from './interfaces.js';
import { messageOf } from '../api/thrown.js';

export interface WebhookConfig {
  /** The kubeconfig file naming the service. */
  configFile: string;
  version: 'v1' | 'v1beta1';
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  /** How long one call may take (ms); default 10 s. */
  timeoutMs?: number;
}

/** A webhook service: its URL and credentials. */
export interface Endpoint {
  url: URL;
  ca?: string;
  cert?: string;
  key?: string;
  token?: string;
}

type Named<T> = { name?: string } & T;

/** The service a webhook kubeconfig points at (its current context, else its first cluster and user). */
export function loadWebhookKubeconfig(file: string): Endpoint {
  const cfg = parse(readFileSync(file, 'utf8')) as {
    clusters?: Named<{ cluster?: Record<string, string> }>[];
    users?: Named<{ user?: Record<string, string> }>[];
    contexts?: Named<{ context?: { cluster?: string; user?: string } }>[];
    'current-context'?: string;
  };
  assertKubeconfigType(cfg, file);
  const context = cfg.contexts?.find((c) => c.name === cfg['current-context'])?.context;
  const cluster = (cfg.clusters?.find((c) => c.name === context?.cluster) ?? cfg.clusters?.[0])?.cluster;
  const user = (cfg.users?.find((u) => u.name === context?.user) ?? cfg.users?.[0])?.user ?? {};
  if (!cluster?.server) throw new Error(`${file}: no cluster server`);
  const base = dirname(file);
  const read = (data: string | undefined, path: string | undefined) =>
    data ? Buffer.from(data, 'base64').toString('utf8') : path ? readFileSync(resolve(base, path), 'utf8') : undefined;
  return {
    url: new URL(cluster.server),
    ca: read(cluster['certificate-authority-data'], cluster['certificate-authority']),
    cert: read(user['client-certificate-data'], user['client-certificate']),
    key: read(user['client-key-data'], user['client-key']),
    token: user.token,
  };
}

/** The SubjectAccessReview spec of a request, in the version's field names. */
function reviewSpec(a: Attributes, version: WebhookConfig['version']): Record<string, unknown> {
  const spec: Record<string, unknown> = a.resourceRequest
    ? {
        resourceAttributes: {
          namespace: a.namespace,
          verb: a.verb,
          group: a.apiGroup,
          version: a.apiVersion,
          resource: a.resource,
          subresource: a.subresource,
          name: a.name,
        },
      }
    : { nonResourceAttributes: { path: a.path, verb: a.verb } };
  spec.user = a.user.name;
  if (a.user.uid) spec.uid = a.user.uid;
  spec[version === 'v1' ? 'groups' : 'group'] = a.user.groups;
  if (a.user.extra) spec.extra = a.user.extra;
  return spec;
}

/** POSTs a JSON body to a webhook service; resolves with the status and answer text. */
export function postToEndpoint(endpoint: Endpoint, body: string, timeoutMs: number): Promise<{ status: number; text: string }> {
  return new Promise((resolvePost, reject) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
    if (endpoint.token) headers.Authorization = `Bearer ${endpoint.token}`;
    const req = request(
      endpoint.url,
      { method: 'POST', headers, ca: endpoint.ca, cert: endpoint.cert, key: endpoint.key, timeout: timeoutMs },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolvePost({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out after ${timeoutMs}ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

export function newWebhookAuthorizer(config: WebhookConfig): Authorizer & RuleResolver {
  const endpoint = loadWebhookKubeconfig(config.configFile);
  const cache = new Map<string, { result: AuthorizationResult; expires: number }>();
  const apiVersion = `authorization.k8s.io/${config.version}`;
  return {
    async authorize(a) {
      const spec = reviewSpec(a, config.version);
      const key = JSON.stringify(spec);
      const now = Date.now();
      const hit = cache.get(key);
      if (hit && hit.expires > now) return hit.result;
      let status: { allowed?: boolean; denied?: boolean; reason?: string; evaluationError?: string };
      try {
        const res = await postToEndpoint(
          endpoint,
          JSON.stringify({ apiVersion, kind: 'SubjectAccessReview', spec }),
          config.timeoutMs ?? 10_000,
        );
        if (res.status < 200 || res.status > 299) throw new Error(`the webhook answered ${res.status}`);
        status = (JSON.parse(res.text) as { status?: typeof status }).status ?? {};
      } catch (err) {
        return { decision: 'NoOpinion', reason: `webhook authorizer failed: ${messageOf(err)}` };
      }
      const decision = status.allowed ? 'Allow' : status.denied ? 'Deny' : 'NoOpinion';
      const result: AuthorizationResult = { decision, reason: status.reason ?? '' };
      cache.set(key, { result, expires: now + (status.allowed ? config.authorizedTtlMs : config.unauthorizedTtlMs) });
      if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
      return result;
    },
    rulesFor() {
      return {
        resourceRules: [],
        nonResourceRules: [],
        incomplete: true,
        errors: ['webhook authorizer does not support user rule resolution'],
      };
    },
  };
}
