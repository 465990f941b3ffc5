/**
 * One request's audit: its event at the level the policy chose, what the request and the handlers
 * add to it (request and response objects, annotations), and its emission at each stage the policy
 * does not omit. Objects are kept only at the levels that log them.
 */
import type { UserInfo } from '../api/user-info.js';
import type { AuditDecision } from './policy.js';
import type { AuditBackend, AuditEvent, AuditUser, ObjectReference, Stage } from './types.js';

export interface AuditRequest {
  auditID: string;
  apiVersion: string;
  requestURI: string;
  verb: string;
  user: UserInfo;
  sourceIPs: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  received: Date;
}

export class AuditContext {
  /** Annotations added while the request is served (admission, authorization, deprecation). */
  readonly annotations: Record<string, string> = {};
  private readonly event: AuditEvent;
  private requestBody?: Buffer;
  private responseObject?: unknown;

  constructor(
    private readonly decision: AuditDecision,
    request: AuditRequest,
    private readonly backend: AuditBackend,
  ) {
    this.event = {
      kind: 'Event',
      apiVersion: request.apiVersion,
      level: decision.level,
      auditID: request.auditID,
      stage: 'RequestReceived',
      requestURI: request.requestURI,
      verb: request.verb,
      user: auditUser(request.user),
      sourceIPs: request.sourceIPs,
      userAgent: request.userAgent,
      objectRef: request.objectRef,
      requestReceivedTimestamp: microTime(request.received),
      stageTimestamp: '',
    };
  }

  get auditID(): string {
    return this.event.auditID;
  }

  /** Whether the response object is logged (handlers that stream answers write them whole then). */
  get wantsResponse(): boolean {
    return this.decision.level === 'RequestResponse';
  }

  /** The raw request body; kept only at Request and RequestResponse. */
  recordRequestBody(raw: Buffer): void {
    if (this.decision.level === 'Request' || this.decision.level === 'RequestResponse') this.requestBody = raw;
  }

  /** The answer: its Status fields become responseStatus; the object is kept at RequestResponse. */
  recordResponse(body: unknown): void {
    const b = body as {
      kind?: string;
      status?: string;
      message?: string;
      reason?: string;
      details?: unknown;
      metadata?: { name?: string };
    };
    if (b?.kind === 'Status') {
      this.event.responseStatus = { metadata: {}, status: b.status, message: b.message, reason: b.reason, details: b.details, code: 0 };
    } else if (this.event.verb === 'create' && this.event.objectRef && !this.event.objectRef.name && b?.metadata?.name) {
      this.event.objectRef.name = b.metadata.name;
    }
    if (this.wantsResponse) this.responseObject = body;
  }

  /** The user the request acts as after impersonation. */
  impersonated(user: UserInfo): void {
    this.event.impersonatedUser = auditUser(user);
  }

  /** Sends the event at `stage` unless the policy omits it; ResponseComplete carries the code and the objects. */
  emit(stage: Stage, code?: number): void {
    if (this.decision.omitStages.has(stage)) return;
    const e: AuditEvent = { ...this.event, stage, stageTimestamp: microTime(new Date()) };
    if (code !== undefined) e.responseStatus = { ...(this.event.responseStatus ?? { metadata: {} }), code };
    if (Object.keys(this.annotations).length) e.annotations = { ...this.annotations };
    if (stage === 'ResponseComplete' || stage === 'Panic') {
      if (this.requestBody?.length) e.requestObject = this.objectOf(parseJson(this.requestBody));
      if (this.responseObject !== undefined) e.responseObject = this.objectOf(this.responseObject);
    }
    this.backend.process([e]);
  }

  private objectOf(value: unknown): unknown {
    if (!this.decision.omitManagedFields || typeof value !== 'object' || value === null) return value;
    const o = value as { metadata?: Record<string, unknown>; items?: unknown[] };
    const strip = (x: { metadata?: Record<string, unknown> }) => {
      if (!x?.metadata?.managedFields) return x;
      const { managedFields: _, ...metadata } = x.metadata;
      return { ...x, metadata };
    };
    const top = strip(o) as typeof o;
    return Array.isArray(top.items) ? { ...top, items: top.items.map((i) => strip(i as typeof o)) } : top;
  }
}

function auditUser(u: UserInfo): AuditUser {
  // A request that failed authentication has no user: {}.
  const out: AuditUser = u.name ? { username: u.name } : {};
  if (u.uid) out.uid = u.uid;
  if (u.groups.length) out.groups = u.groups;
  if (u.extra && Object.keys(u.extra).length) out.extra = u.extra;
  return out;
}

/** A request body that is JSON, as an object; anything else (YAML, protobuf) is not logged. */
function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** RFC 3339 with microseconds, as Kubernetes writes audit timestamps. */
export function microTime(d: Date): string {
  return d.toISOString().replace(/Z$/, '000Z');
}
