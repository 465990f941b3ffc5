/** LIST: the read plan of the options, paging with continue tokens, selectors applied while paging. */
import type { ApiList, ApiObject } from '../api/object.js';
import * as status from '../api/status.js';
import { isStorageError } from '../storage/errors.js';
import type { GenericStore } from './store.js';
import type { RequestContext } from './request-context.js';
import { planList, type ListOptions } from './list-options.js';
import { decodeContinue, encodeContinue, CONTINUE_EXPIRED_MESSAGE } from './continue-token.js';
import { newSelection } from './selection.js';
import { waitForRevision } from './wait-for-revision.js';

export async function listObjects(store: GenericStore, ctx: RequestContext, opts: ListOptions): Promise<ApiList> {
  const plan = planList(opts);
  const selection = newSelection(store.def, opts.labelSelector, opts.fieldSelector);
  const prefix = store.keys.listPrefix(ctx.namespace);
  const root = store.keys.listPrefix('');
  const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;

  let revision = 0;
  let startKey: string | undefined;
  if (plan.kind === 'continue') {
    const pos = decodeContinue(plan.token);
    startKey = root + pos.start;
    if (!startKey.startsWith(prefix)) throw status.badRequest('continue key is not valid: the token does not belong to this list');
    revision = pos.revision === -1 ? 0 : pos.revision;
  } else if (plan.kind === 'exact') {
    revision = plan.revision;
    await waitForRevision(store.storage, revision);
  } else if (plan.kind === 'notOlderThan') {
    await waitForRevision(store.storage, plan.revision);
  }

  const items: ApiObject[] = [];
  let next: string | undefined;
  let remaining: number | undefined;
  try {
    for (;;) {
      const page = await store.storage.list(prefix, { revision, limit, startKey });
      revision = page.revision;
      let i = 0;
      for (; i < page.items.length && (!limit || items.length < limit); i++) {
        const obj = store.decode(page.items[i]);
        if (selection.matches(obj)) items.push(obj);
      }
      const leftInPage = page.items.length - i;
      if (limit && items.length >= limit && (leftInPage > 0 || page.more)) {
        next = store.keys.relative(page.items[i - 1].key) + '\u0000';
        if (selection.everything) remaining = leftInPage + page.remaining;
        break;
      }
      if (!page.more || page.items.length === 0) break;
      startKey = page.items[page.items.length - 1].key + '\u0000';
    }
  } catch (err) {
    if (plan.kind === 'continue' && isStorageError(err, 'Compacted')) {
      const e = status.expired(CONTINUE_EXPIRED_MESSAGE);
      e.status.metadata.continue = encodeContinue({ revision: -1, start: store.keys.relative(startKey!) });
      throw e;
    }
    if (isStorageError(err, 'Compacted')) throw status.expired(`too old resource version: ${revision} (${err.revision ?? 0})`);
    throw err;
  }
  const list: ApiList = {
    apiVersion: store.def.apiVersion,
    kind: store.def.listKind,
    metadata: { resourceVersion: String(revision) },
    items,
  };
  if (next !== undefined) {
    list.metadata.continue = encodeContinue({ revision, start: next });
    if (remaining !== undefined) list.metadata.remainingItemCount = remaining;
  }
  return list;
}
