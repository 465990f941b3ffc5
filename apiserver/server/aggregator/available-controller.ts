/**
 * kube-aggregator's AvailableConditionController: keeps each APIService's `Available` condition. A
 * local one is always available (reason Local); a remote one is available once its Service exists,
 * listens on the port, has endpoints (endpoint routing) and answers a discovery GET of its group
 * version (2xx within 5 s, over the front-proxy certificate, as system:kube-aggregator in
 * system:masters). Anything else is False with kube-aggregator's reason and message. Each APIService
 * is checked when it changes and every 30 s; a condition is written (to /status) only when it changed.
 */
import { request as httpsRequest } from 'node:https';
import type { APIService, APIServiceCondition } from '../../api/generated/types.js';
import type { Logger } from '../../component-base/logs/logger.js';
import type { IdentityHeaderNames } from '../../frontdoor/identity.js';
import { identityHeaders } from '../../frontdoor/identity.js';
import { localAvailableCondition } from '../../registry/apiregistration/apiservice/strategy.js';
import type { ApiServiceCache } from './api-services.js';
import type { TlsOptions } from './proxy.js';
import { hostPort, ResolveError, resolveEndpoint, type ServiceReader } from './resolve-endpoint.js';

export interface AvailabilityDeps {
  cache: ApiServiceCache;
  reader: ServiceReader;
  endpointRouting: boolean;
  tls(s: APIService): TlsOptions;
  headerNames: IdentityHeaderNames;
  /** Writes the Available condition (through /status), keeping the other conditions. */
  writeCondition(name: string, condition: APIServiceCondition): Promise<void>;
  logger: Logger;
  resyncMs?: number;
  checkTimeoutMs?: number;
}

const DISCOVERY_TIMEOUT_MS = 5_000;
const RESYNC_MS = 30_000;

type Verdict = Omit<APIServiceCondition, 'type' | 'lastTransitionTime'>;

/** One discovery GET; resolves with an error message or undefined when it answered 2xx. */
function discoveryCheck(
  url: string,
  tls: TlsOptions,
  headers: Record<string, string | string[]>,
  timeoutMs: number,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    // As kube-aggregator's check: the serving certificate is not verified (the caBundle is the proxy's concern).
    const { ca: _ca, ...client } = tls;
    let req: ReturnType<typeof httpsRequest>;
    try {
      req = httpsRequest(url, { ...client, rejectUnauthorized: false, headers, agent: false, timeout: timeoutMs }, (res) => {
        res.resume();
        const code = res.statusCode ?? 0;
        resolve(code >= 200 && code < 300 ? undefined : `failing or missing response from ${url}: bad status from ${url}: ${code}`);
        res.on('error', () => {});
      });
    } catch (err) {
      resolve(`failing or missing response from ${url}: ${String(err)}`);
      return;
    }
    const timer = setTimeout(() => {
      req.destroy();
      resolve(`timed out waiting for ${url}`);
    }, timeoutMs + 1000);
    req.on('timeout', () => req.destroy(new Error('Client.Timeout exceeded while awaiting headers')));
    req.on('error', (err) => resolve(`failing or missing response from ${url}: ${err.message}`));
    req.on('close', () => clearTimeout(timer));
    req.end();
  });
}

export async function checkAvailability(s: APIService, d: AvailabilityDeps): Promise<Verdict> {
  const svc = s.spec?.service;
  if (!svc) return localAvailableCondition(new Date());
  let endpoint: Awaited<ReturnType<typeof resolveEndpoint>>;
  try {
    endpoint = await resolveEndpoint(
      d.reader,
      { namespace: svc.namespace ?? '', name: svc.name ?? '', port: svc.port ?? 443 },
      d.endpointRouting,
    );
  } catch (err) {
    if (err instanceof ResolveError) return { status: 'False', reason: err.reason, message: err.message };
    return {
      status: 'Unknown',
      reason: 'ServiceAccessError',
      message: `service/${svc.name} in "${svc.namespace}" cannot be checked due to: ${String(err)}`,
    };
  }
  const path = s.metadata.name === 'v1.' ? `/api/${s.spec?.version}` : `/apis/${s.spec?.group}/${s.spec?.version}`;
  const url = `https://${hostPort(endpoint)}${path}`;
  const headers = identityHeaders({ name: 'system:kube-aggregator', groups: ['system:masters'] }, d.headerNames);
  const error = await discoveryCheck(url, d.tls(s), headers, d.checkTimeoutMs ?? DISCOVERY_TIMEOUT_MS);
  if (error) return { status: 'False', reason: 'FailedDiscoveryCheck', message: error };
  return { status: 'True', reason: 'Passed', message: 'all checks passed' };
}

export function startAvailableController(d: AvailabilityDeps): { stop(): void } {
  const running = new Set<string>();
  const dirty = new Set<string>();
  let stopped = false;
  const sync = async (name: string): Promise<void> => {
    if (stopped) return;
    if (running.has(name)) {
      dirty.add(name);
      return;
    }
    running.add(name);
    try {
      const s = d.cache.get(name);
      if (!s) return;
      const verdict = await checkAvailability(s, d);
      const current = d.cache.get(name)?.status?.conditions?.find((c) => c.type === 'Available');
      if (
        stopped ||
        (current && current.status === verdict.status && current.reason === verdict.reason && current.message === verdict.message)
      )
        return;
      await d.writeCondition(name, { type: 'Available', ...verdict, lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') });
    } catch (err) {
      d.logger.verbose('APIService availability check failed', { name, err: String(err) });
    } finally {
      running.delete(name);
      if (dirty.delete(name)) void sync(name);
    }
  };
  d.cache.onChange((name) => void sync(name));
  const resync = setInterval(() => {
    for (const s of d.cache.all()) if (s.spec?.service) void sync(s.metadata.name ?? '');
  }, d.resyncMs ?? RESYNC_MS);
  resync.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(resync);
    },
  };
}

/** SetAPIServiceCondition: the condition replaced, its lastTransitionTime kept while the status stays. */
export function setCondition(s: APIService, c: APIServiceCondition): void {
  s.status ??= {};
  const conditions = (s.status.conditions ??= []);
  const existing = conditions.find((x) => x.type === c.type);
  if (!existing) {
    conditions.push(c);
    return;
  }
  if (existing.status !== c.status) {
    existing.status = c.status;
    existing.lastTransitionTime = c.lastTransitionTime;
  }
  existing.reason = c.reason;
  existing.message = c.message;
}
