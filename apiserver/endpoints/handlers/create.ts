import * as status from '../../api/status.js';
import type { RequestScope } from './scope.js';
import { respond } from './scope.js';
import { readObjectBody } from './read-object-body.js';

/** POST: decode, create, 201 with the stored object (also for dryRun). */
export async function handleCreate(s: RequestScope): Promise<void> {
  if (s.info.name) throw status.methodNotAllowed();
  const object = await readObjectBody(s);
  respond(s, 201, await s.store.create(s.ctx, object));
}
