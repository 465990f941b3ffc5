/**
 * GET (and HEAD) of the history subresource every kind has while the revision ledger is on
 * (registry/generic/history-view.ts): the object's revisions, or `?resourceVersion=RV` the object
 * as it was then. Authorized before it gets here as `get` on `<resource>/history`; audited as any
 * request is.
 */
import type { ApiObject } from '../../api/object.js';
import * as status from '../../api/status.js';
import { HISTORY_LIST_KIND, type ObjectRevisionList } from '../../registry/generic/history-view.js';
import { parseListQuery } from './query.js';
import type { RequestScope } from './scope.js';
import { respond } from './scope.js';
import { renderAnswer } from './render-view.js';

export async function handleHistory(s: RequestScope): Promise<void> {
  if (s.info.verb !== 'get') throw status.methodNotAllowed();
  // The list's query rules (limit ≥ 0, continue): the view pages like a list.
  const { limit, continue: token, resourceVersion } = parseListQuery(s.query);
  const body = await s.store.history(s.ctx, s.info.name, { limit, continue: token, resourceVersion });
  // The object as it was at a revision answers in the view asked for, as a GET of it does.
  respond(s, 200, isRevisionList(body) ? body : renderAnswer(s, body), { headOnly: s.req.method === 'HEAD' });
}

function isRevisionList(body: ApiObject | ObjectRevisionList): body is ObjectRevisionList {
  return body.kind === HISTORY_LIST_KIND;
}
