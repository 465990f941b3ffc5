/**
 * Where a webhook's clientConfig points (admission and CRD conversion webhooks share the shape): its
 * `url`, or its `service` resolved through the Service's Endpoints (a ready address and the target
 * port), else the Service's cluster IP; the CA bundle to trust, the service's DNS name as TLS server
 * name, and the client credentials configured for it. A service that cannot be resolved is a
 * WebhookCallError saying why.
 */
import type { WebhookClientConfig } from '../../registry/admissionregistration/types.js';
import type { ObjectReader } from '../interfaces.js';
import { ENDPOINTS, SERVICES } from '../resources.js';
import { type CallTarget, WebhookCallError } from './call.js';
import type { CredentialsFor } from './credentials.js';

export async function webhookTarget(cc: WebhookClientConfig, reader: ObjectReader, credentialsFor: CredentialsFor): Promise<CallTarget> {
  const ca = cc.caBundle ? Buffer.from(cc.caBundle, 'base64').toString('utf8') : undefined;
  if (cc.url) {
    const url = new URL(cc.url);
    const port = Number(url.port || 443);
    return { url, ca, credentials: credentialsFor(url.hostname, port) };
  }
  const svc = cc.service ?? {};
  const ns = svc.namespace ?? '';
  const name = svc.name ?? '';
  const port = svc.port ?? 443;
  const servername = `${name}.${ns}.svc`;
  const credentials = credentialsFor(servername, port);
  const path = svc.path ?? '/';
  const service = await reader.get(SERVICES, ns, name);
  if (!service) throw new WebhookCallError(`service "${ns}/${name}" not found`);
  const ports = service.spec?.ports ?? [];
  const sp = ports.find((p) => p.port === port);
  if (!sp) throw new WebhookCallError(`service "${ns}/${name}" has no port ${port}`);
  // Through its Endpoints (a ready address and the target port), else its cluster IP.
  const endpoints = await reader.get(ENDPOINTS, ns, name);
  for (const subset of endpoints?.subsets ?? []) {
    const ep = (subset.ports ?? []).find((p) => (sp.name ? p.name === sp.name : true));
    const ip = subset.addresses?.[0]?.ip;
    if (ep && ip) return { url: new URL(`https://${ip.includes(':') ? `[${ip}]` : ip}:${ep.port}${path}`), ca, servername, credentials };
  }
  const clusterIP = service.spec?.clusterIP;
  if (!clusterIP || clusterIP === 'None') throw new WebhookCallError(`service "${ns}/${name}" has no endpoints and no cluster IP`);
  return {
    url: new URL(`https://${clusterIP.includes(':') ? `[${clusterIP}]` : clusterIP}:${port}${path}`),
    ca,
    servername,
    credentials,
  };
}
