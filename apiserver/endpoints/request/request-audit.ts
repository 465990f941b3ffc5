import type { IncomingMessage } from 'node:http';
import type { AuditContext } from '../../audit/audit-context.js';

const key = Symbol('audit');

/** Set by the audit filter when the policy audits the request. */
export function setAudit(req: IncomingMessage, ctx: AuditContext): void {
  // A private symbol member of the request: IncomingMessage's type has no room for it.
  (req as unknown as Record<symbol, AuditContext>)[key] = ctx;
}

/** The request's audit, or undefined when it is not audited (no policy, or level None). */
export function auditFrom(req: IncomingMessage): AuditContext | undefined {
  // The member setAudit wrote (see there).
  return (req as unknown as Record<symbol, AuditContext | undefined>)[key];
}
