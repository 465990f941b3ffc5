import * as status from '../../api/status.js';
import type { RequestScope } from './scope.js';
import { respond } from './scope.js';
import { readObjectBody } from './read-object-body.js';
import { newRequestFieldManager, trackUpdate } from '../../fieldmanager/request-field-manager.js';
import { parseFieldManagerOptions } from './write-options.js';
import { checkViewShape, renderAnswer } from './render-view.js';

/** POST: decode, create (recording the creator's fields), 201 with the stored object (also for dryRun). */
export async function handleCreate(s: RequestScope): Promise<void> {
  if (s.info.name) throw status.methodNotAllowed();
  checkViewShape(s, false);
  const { manager } = parseFieldManagerOptions(s.query, s.req.headers['user-agent'], s.api.table.domain.metaGroup, 'CreateOptions');
  const object = await readObjectBody(s);
  const trackFields = trackUpdate(newRequestFieldManager(s.store, s.api.definitions, s.ctx), manager);
  respond(s, 201, renderAnswer(s, await s.store.create(s.ctx, object, { trackFields })));
}
