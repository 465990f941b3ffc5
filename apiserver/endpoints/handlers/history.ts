/**
 * GET (and HEAD) of the history subresource every kind has while the revision ledger is on
 * (registry/generic/history-view.ts): the object's revisions, or `?resourceVersion=RV` the object
 * as it was then. Authorized before it gets here as `get` on `<resource>/history`; audited as any
 * request is.
 */
import * as status from '../../api/status.js';
import { parseListQuery } from './query.js';
import type { RequestScope } from './scope.js';
import { respond } from './scope.js';

export async function handleHistory(s: RequestScope): Promise<void> {
  if (s.info.verb !== 'get') throw status.methodNotAllowed();
  // The list's query rules (limit ≥ 0, continue): the view pages like a list.
  const { limit, continue: token, resourceVersion } = parseListQuery(s.query);
  const body = await s.store.history(s.ctx, s.info.name, { limit, continue: token, resourceVersion });
  respond(s, 200, body, { headOnly: s.req.method === 'HEAD' });
}
