import type { IncomingMessage } from 'node:http';
import type { AuditContext } from '../../audit/audit-context.js';
import { newRequestSlot } from './request-slot.js';

const slot = newRequestSlot<AuditContext>('audit', 'audit');

/** Set by the audit filter when the policy audits the request. */
export function setAudit(req: IncomingMessage, ctx: AuditContext): void {
  slot.set(req, ctx);
}

/** The request's audit, or undefined when it is not audited (no policy, or level None). */
export function auditFrom(req: IncomingMessage): AuditContext | undefined {
  return slot.find(req);
}
