import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AuditContext, type AuditRequest } from '../../audit/audit-context.js';
import type { UserInfo } from '../../api/user-info.js';
import type { AuditPolicy } from '../../audit/policy.js';
import type { AuditAttributes, AuditBackend, ObjectReference } from '../../audit/types.js';
import { setAudit } from '../../endpoints/request/request-audit.js';
import { requestInfoFrom, type RequestInfo } from '../../endpoints/request/request-info.js';
import { isLongRunning } from '../../endpoints/request/long-running.js';
import { userFrom } from '../../endpoints/request/request-user.js';
import type { Handler } from './handler.js';

/**
 * The audit filter (after authentication, before impersonation, as in Kubernetes): the policy picks
 * the request's level; a request it audits gets an Audit-ID, an event at RequestReceived, at
 * ResponseStarted when a long-running answer starts, and at ResponseComplete. A request at level
 * None costs one policy check.
 */
export function withAudit(handler: Handler, policy: AuditPolicy, backend: AuditBackend, apiVersion: string): Handler {
  return (req, res) => {
    const info = requestInfoFrom(req);
    const user = userFrom(req);
    const decision = policy.decide({ ...attributesOf(info), user });
    if (decision.level === 'None') return handler(req, res);
    const ctx = new AuditContext(decision, auditRequest(req, info, user, apiVersion), backend);
    setAudit(req, ctx);
    res.setHeader('Audit-Id', ctx.auditID);
    ctx.emit('RequestReceived');
    if (isLongRunning(info)) {
      const writeHead = res.writeHead;
      res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
        ctx.emit('ResponseStarted', typeof args[0] === 'number' ? args[0] : res.statusCode);
        return writeHead.apply(this, args);
      } as ServerResponse['writeHead'];
    }
    res.once('close', () => {
      const actingAs = userFrom(req);
      if (actingAs !== user) ctx.impersonated(actingAs);
      ctx.emit('ResponseComplete', res.statusCode);
    });
    return handler(req, res);
  };
}

/**
 * Requests refused by authentication (401) are audited too, as Kubernetes' failed-authentication
 * audit does: no user, one event at ResponseStarted whose message names the credentials tried. It
 * sits before the authentication filter; a request that authenticated has its own audit.
 */
export function withFailedAuthenticationAudit(handler: Handler, policy: AuditPolicy, backend: AuditBackend, apiVersion: string): Handler {
  return (req, res) => {
    res.once('finish', () => {
      if (res.statusCode !== 401) return;
      const info = requestInfoFrom(req);
      const anonymous = { name: '', groups: [] };
      const decision = policy.decide({ ...attributesOf(info), user: anonymous });
      if (decision.level === 'None') return;
      const ctx = new AuditContext(decision, auditRequest(req, info, anonymous, apiVersion), backend);
      ctx.recordResponse({ kind: 'Status', message: authMethods(req) });
      ctx.emit('ResponseStarted', 401);
    });
    return handler(req, res);
  };
}

/** What a failed authentication tried (Kubernetes' getAuthMethods). */
function authMethods(req: IncomingMessage): string {
  const methods: string[] = [];
  const auth = (req.headers.authorization ?? '').trim();
  if (/^basic\s/i.test(auth)) methods.push('basic');
  const parts = auth.split(' ');
  if (parts.length > 1 && parts[0].toLowerCase() === 'bearer') methods.push('bearer');
  if (requestInfoFrom(req).query.get('access_token')?.trim()) methods.push('access_token');
  const socket = req.socket as { getPeerCertificate?: () => { raw?: Buffer } };
  if (socket.getPeerCertificate?.()?.raw) methods.push('x509');
  return methods.length ? `Authentication failed, attempted: ${methods.join(', ')}` : 'Authentication failed, no credentials provided';
}

function attributesOf(info: RequestInfo): Omit<AuditAttributes, 'user'> {
  return {
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: info.apiGroup,
    namespace: info.namespace,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
}

function auditRequest(req: IncomingMessage, info: RequestInfo, user: UserInfo, apiVersion: string): AuditRequest {
  const headerID = req.headers['audit-id'];
  return {
    auditID: typeof headerID === 'string' && headerID ? headerID : randomUUID(),
    apiVersion,
    requestURI: req.url ?? '/',
    verb: info.verb,
    user,
    sourceIPs: sourceIPs(req),
    userAgent: req.headers['user-agent'],
    objectRef: objectRef(info),
    received: new Date(),
  };
}

function objectRef(info: RequestInfo): ObjectReference | undefined {
  if (!info.isResourceRequest) return undefined;
  const ref: ObjectReference = { resource: info.resource };
  if (info.namespace) ref.namespace = info.namespace;
  if (info.name) ref.name = info.name;
  if (info.apiGroup) ref.apiGroup = info.apiGroup;
  ref.apiVersion = info.apiVersion;
  if (info.subresource) ref.subresource = info.subresource;
  return ref;
}

/** X-Forwarded-For, then X-Real-Ip, then the peer (Kubernetes' utilnet.SourceIPs), without repeats. */
function sourceIPs(req: IncomingMessage): string[] {
  const ips: string[] = [];
  const add = (ip: string | undefined) => {
    const v = ip?.trim().replace(/^::ffff:/, '');
    if (v && !ips.includes(v)) ips.push(v);
  };
  const xff = req.headers['x-forwarded-for'];
  for (const ip of (Array.isArray(xff) ? xff.join(',') : (xff ?? '')).split(',')) add(ip);
  const real = req.headers['x-real-ip'];
  add(Array.isArray(real) ? real[0] : real);
  add(req.socket.remoteAddress);
  return ips;
}
