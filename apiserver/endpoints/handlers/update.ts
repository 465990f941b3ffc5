import type { RequestScope } from './scope.js';
import { respond } from './scope.js';
import { readObjectBody } from './read-object-body.js';
import { newRequestFieldManager, trackUpdate } from '../../fieldmanager/request-field-manager.js';
import { parseFieldManagerOptions } from './write-options.js';
import { checkViewShape, renderAnswer } from './render-view.js';

/** PUT of an object or a subresource (recording the writer's fields): 200, or 201 when it created the object. */
export async function handleUpdate(s: RequestScope): Promise<void> {
  checkViewShape(s, false);
  const { manager } = parseFieldManagerOptions(s.query, s.req.headers['user-agent'], s.api.table.domain.metaGroup, 'UpdateOptions');
  const object = await readObjectBody(s);
  const trackFields = trackUpdate(newRequestFieldManager(s.store, s.api.definitions, s.ctx, s.info.subresource), manager);
  const { object: stored, created } = await s.store.update(s.ctx, s.info.name, () => object, {
    subresource: s.info.subresource,
    trackFields,
  });
  respond(s, created ? 201 : 200, renderAnswer(s, stored));
}
