import { parseResourceVersion } from '../../registry/list-options.js';
import { waitForRevision } from '../../registry/wait-for-revision.js';
import { listObjects } from '../../registry/list.js';
import type { RequestScope } from './scope.js';
import { respond } from './scope.js';
import { parseListQuery } from './query.js';
import { renderList, renderObject } from './render-view.js';

/** GET/HEAD of one object (or its subresource view); a non-zero resourceVersion means "not older than". */
export async function handleGet(s: RequestScope): Promise<void> {
  const rv = parseResourceVersion(s.query.get('resourceVersion') ?? undefined);
  if (rv) await waitForRevision(s.store.storage, rv);
  const obj = await s.store.get(s.ctx, s.info.name);
  respond(s, 200, renderObject(s, obj), { headOnly: s.req.method === 'HEAD' });
}

/** LIST with selectors, paging and the resourceVersion rules. */
export async function handleList(s: RequestScope): Promise<void> {
  const list = await listObjects(s.store, s.ctx, parseListQuery(s.query));
  respond(s, 200, renderList(s, list), { headOnly: s.req.method === 'HEAD' });
}
