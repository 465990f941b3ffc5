/**
 * POST to a kind that is never stored (the access reviews): the body decoded and checked against the
 * schema as any create, answered by the server's handler for the kind, 201 with what it returns.
 */
import * as status from '../../api/status.js';
import type { RequestScope } from './scope.js';
import { respond } from './scope.js';
import { readObjectBody } from './read-object-body.js';

export async function handleVirtualCreate(s: RequestScope): Promise<void> {
  const answer = s.api.virtualKinds?.get(s.def.kind);
  if (!answer) throw status.methodNotAllowed();
  const object = await readObjectBody(s);
  object.apiVersion = s.def.apiVersion;
  object.kind = s.def.kind;
  respond(s, 201, await answer(object, { user: s.ctx.user, namespace: s.ctx.namespace }));
}
