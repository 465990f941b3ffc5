/**
 * One GET to an extension server as the aggregator itself (system:kube-aggregator in system:masters,
 * over the front-proxy certificate): its status, headers and body, within a timeout and a body limit,
 * never a hang. What the discovery and OpenAPI downloaders read.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { APIService } from '../../api/generated/types.js';
import { identityHeaders, type IdentityHeaderNames } from '../../frontdoor/identity.js';
import type { TlsOptions } from './proxy.js';
import { hostPort, resolveEndpoint, type ServiceReader } from './resolve-endpoint.js';

export interface ExtensionAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface ExtensionGetDeps {
  reader: ServiceReader;
  endpointRouting: boolean;
  tls(s: APIService): TlsOptions;
  headerNames: IdentityHeaderNames;
}

/** What one downloaded document may weigh (an OpenAPI v2 document of a large extension server is a few MB). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export class ExtensionGetError extends Error {}

/** GETs `path` from the extension server behind `s`; rejects with ExtensionGetError when it cannot be reached in time. */
export async function extensionGet(
  s: APIService,
  path: string,
  headers: Record<string, string>,
  d: ExtensionGetDeps,
  timeoutMs: number,
): Promise<ExtensionAnswer> {
  const svc = s.spec?.service;
  if (!svc) throw new ExtensionGetError(`${s.metadata.name} is local`);
  let endpoint: Awaited<ReturnType<typeof resolveEndpoint>>;
  try {
    endpoint = await resolveEndpoint(
      d.reader,
      { namespace: svc.namespace ?? '', name: svc.name ?? '', port: svc.port ?? 443 },
      d.endpointRouting,
    );
  } catch (err) {
    throw new ExtensionGetError(String(err instanceof Error ? err.message : err));
  }
  const identity = identityHeaders({ name: 'system:kube-aggregator', groups: ['system:masters'] }, d.headerNames);
  const url = `https://${hostPort(endpoint)}${path}`;
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new ExtensionGetError(`${url}: ${message}`));
    };
    let req: ReturnType<typeof httpsRequest>;
    try {
      req = httpsRequest(url, { ...d.tls(s), headers: { ...headers, ...identity }, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BODY_BYTES) {
            req.destroy();
            fail(`answer larger than ${MAX_BODY_BYTES} bytes`);
            return;
          }
          chunks.push(c);
        });
        res.on('error', (err) => fail(err.message));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
      });
    } catch (err) {
      // A caBundle that is no certificate fails as the TLS context is made.
      fail(String(err instanceof Error ? err.message : err));
      return;
    }
    timer = setTimeout(() => {
      req.destroy();
      fail(`timed out after ${timeoutMs} ms`);
    }, timeoutMs);
    req.on('error', (err) => fail(err.message));
    req.end();
  });
}
