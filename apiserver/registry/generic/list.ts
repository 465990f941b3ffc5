/** LIST: the read plan of the options, paging with continue tokens, selectors applied while paging. */
import type { ApiList, ApiObject } from '../../api/object.js';
import * as status from '../../api/status.js';
import { isStorageError } from '../../storage/errors.js';
import type { ReadSource } from './read-source.js';
import type { RequestContext } from './request-context.js';
import { planList, type ListOptions, type ReadPlan } from './list-options.js';
import { decodeContinue, encodeContinue, CONTINUE_EXPIRED_MESSAGE } from './continue-token.js';
import { newSelection, type Selection } from './selection.js';
import type { Cacher } from '../../storage/cacher/cacher.js';
import type { CachedPage } from '../../storage/cacher/resource-cache.js';
import { waitForRevision } from './wait-for-revision.js';

/** The list; served from the watch cache when given one and the options allow (see listFromCache). GenericStore.list calls it. */
export async function listObjects(store: ReadSource, ctx: RequestContext, opts: ListOptions, cacher?: Cacher): Promise<ApiList> {
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
  if (cacher && plan.kind === 'continue' && revision > 0) {
    const cached = await continueFromCache(store, cacher, revision, prefix, startKey!, selection, limit);
    if (cached) return cached;
  } else if (cacher && plan.kind !== 'exact' && plan.kind !== 'continue') {
    const cached = await listFromCache(store, cacher, plan, prefix, selection, limit);
    if (cached) return cached;
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
        next = `${store.keys.relative(page.items[i - 1].key)}\u0000`;
        if (selection.everything) remaining = leftInPage + page.remaining;
        break;
      }
      if (!page.more || page.items.length === 0) break;
      startKey = `${page.items[page.items.length - 1].key}\u0000`;
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
  return newList(store, revision, items, next, remaining);
}

/** The list object; `next` (the key to continue at, relative) adds a continue token for `revision`. */
function newList(store: ReadSource, revision: number, items: ApiObject[], next?: string, remaining?: number): ApiList {
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

/**
 * A list from the watch cache: resourceVersion "0" from whatever it holds, unset (a consistent read)
 * once it has caught up with the store's current revision, N once it has N. The cache shows the store
 * as of its revision, so a continue token continues at that revision, from the cache while it holds
 * it (continueFromCache), else in the store like any other. Undefined when the store has to answer.
 */
async function listFromCache(
  store: ReadSource,
  cacher: Cacher,
  plan: ReadPlan,
  prefix: string,
  selection: Selection,
  limit: number,
): Promise<ApiList | undefined> {
  const cache = await cacher.readable(store, plan.kind === 'notOlderThan' ? plan.revision : plan.kind === 'latest' ? 'latest' : 'any');
  if (!cache) return undefined;
  return pageList(store, cache.list(prefix, { limit, matches: selection.matches }), selection);
}

/**
 * The next page of a paged list at the token's revision from the watch cache, when it holds that
 * revision (in its current objects or a snapshot, within its window): exactly what the store would
 * answer at that revision. Undefined when the store has to answer (and 410 once compacted).
 */
async function continueFromCache(
  store: ReadSource,
  cacher: Cacher,
  revision: number,
  prefix: string,
  startKey: string,
  selection: Selection,
  limit: number,
): Promise<ApiList | undefined> {
  const cache = await cacher.readable(store, revision, { wait: false });
  const page = cache?.listAt(revision, prefix, { limit, matches: selection.matches, startKey });
  return page && pageList(store, page, selection);
}

/** The list of a page from the cache. */
function pageList(store: ReadSource, page: CachedPage, selection: Selection): ApiList {
  const next = page.lastKey === undefined ? undefined : `${store.keys.relative(page.lastKey)}\u0000`;
  return newList(store, page.revision, page.items, next, selection.everything ? page.remaining : undefined);
}
