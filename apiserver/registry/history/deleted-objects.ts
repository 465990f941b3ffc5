/**
 * The DeletedObject listing of history.<domain>/v1 (`…/namespaces/NS/deletedobjects`, or all of them at
 * `…/deletedobjects`): what was deleted within the --history-retention window, one item per object
 * whose last deletion is still readable (last-deletion.ts), newest state first in key order of its
 * resource. Read from the ledger keys at one revision, paged with limit/continue like any list.
 *
 * Who sees what: an item of resource R is listed only to users who may `get` `R/history` in the
 * listed namespace (cluster-wide for an all-namespaces list), as reading that object's history is
 * authorized — so the `view` role lists no deleted Secrets. Listing `deletedobjects` itself is
 * open to every authenticated user (the bootstrap policy), as SelfSubjectAccessReview is.
 */
import type { ApiList, ApiObject } from '../../api/object.js';
import * as status from '../../api/status.js';
import { CONTINUE_EXPIRED_MESSAGE, decodeContinue, encodeContinue } from '../generic/continue-token.js';
import { ledgerKey } from '../generic/ledger-record.js';
import { ownerOfAlongsideKey } from '../../storage/interfaces.js';
import type { ListOptions } from '../generic/list-options.js';
import type { RequestContext } from '../generic/request-context.js';
import { interpretStorageError } from '../generic/storage-errors.js';
import type { GenericStore } from '../generic/store.js';
import { isStorageError } from '../../storage/errors.js';
import { type HistoryEnv, ledgerStores } from './history-env.js';
import { type LastDeletion, lastDeletion } from './last-deletion.js';

/** The most ledger keys one page reads, however few of them are deleted objects (a page may hold fewer items than asked). */
const SCAN_PER_PAGE = 1000;
const DEFAULT_LIMIT = 500;
const BATCH = 200;

/** Where a DeletedObject names its object, as a reference kubectl and clients can follow. */
export function deletedObjectItem(d: LastDeletion, apiVersion: string): ApiObject {
  const { def } = d.store;
  const m = d.object.metadata;
  const qualified = def.group ? `${def.plural}.${def.group}` : def.plural;
  return {
    apiVersion,
    kind: 'DeletedObject',
    metadata: {
      // Unique in its namespace across kinds: a ConfigMap and a Secret may share a name.
      name: `${qualified}.${m.name}`,
      ...(m.namespace ? { namespace: m.namespace } : {}),
    },
    target: {
      apiVersion: def.apiVersion,
      kind: def.kind,
      group: def.group,
      resource: def.plural,
      ...(m.namespace ? { namespace: m.namespace } : {}),
      name: m.name,
      uid: m.uid,
    },
    deletion: {
      time: d.time,
      user: d.user,
      resourceVersion: String(d.deletedRevision),
      lastResourceVersion: m.resourceVersion,
    },
  };
}

/** The stores this request lists deleted objects of: in its scope, and readable to its user. */
async function visibleStores(env: HistoryEnv, ctx: RequestContext): Promise<GenericStore[]> {
  const out: GenericStore[] = [];
  for (const s of ledgerStores(env)) {
    if (ctx.namespace && !s.def.namespaced) continue;
    const q = { verb: 'get', group: s.def.group, resource: s.def.plural, subresource: 'history', name: '' };
    if (await env.may(ctx.user, { ...q, namespace: s.def.namespaced ? ctx.namespace : '' })) out.push(s);
  }
  return out;
}

/** How far a page read: ledger keys read, at most max, and the key after the last one (absent: all read). */
export interface Scan {
  count: number;
  max: number;
  next?: string;
}

/** Every deletion visible to the request at one revision, in key order, from `start` (a ledger key). */
export async function* deletions(
  stores: readonly GenericStore[],
  ctx: { namespace: string },
  revision: number,
  start: string,
  scanned: Scan,
): AsyncGenerator<LastDeletion> {
  for (const store of stores) {
    const prefix = ledgerKey(store.keys.listPrefix(ctx.namespace));
    // The resource's keys all sort before start: it was read on an earlier page.
    if (start > prefix && !start.startsWith(prefix)) continue;
    let from = start > prefix ? start : undefined;
    for (;;) {
      const page = await store.storage.list(prefix, { revision, limit: BATCH, ...(from ? { startKey: from } : {}) });
      for (const kv of page.items) {
        // The page's work is bounded: past the scan budget it ends, its continue token here.
        if (scanned.count >= scanned.max) return;
        scanned.count++;
        scanned.next = `${kv.key}\x00`;
        const d = await lastDeletion(store, ownerOfAlongsideKey(kv.key), revision, kv);
        if (d) yield d;
      }
      if (!page.more || page.items.length === 0) break;
      from = `${page.items[page.items.length - 1].key}\x00`;
    }
  }
  scanned.next = undefined;
}

/** One page of the DeletedObjectList. */
export async function listDeletedObjects(env: HistoryEnv, ctx: RequestContext, apiVersion: string, opts: ListOptions): Promise<ApiList> {
  const limit = opts.limit && opts.limit > 0 ? Math.min(opts.limit, DEFAULT_LIMIT) : DEFAULT_LIMIT;
  const pos = opts.continue ? decodeContinue(opts.continue) : undefined;
  if (pos?.revision === -1) throw status.badRequest('continue key is not valid: deleted objects continue at a revision');
  const revision = pos?.revision ?? (await env.storage.currentRevision());
  // Tokens hold the key without its leading '/', as every continue token's start does.
  const start = pos ? `/${pos.start}` : '';
  const items: ApiObject[] = [];
  const scanned: Scan = { count: 0, max: SCAN_PER_PAGE };
  try {
    for await (const d of deletions(await visibleStores(env, ctx), ctx, revision, start, scanned)) {
      items.push(deletedObjectItem(d, apiVersion));
      if (items.length >= limit) break;
    }
  } catch (err) {
    if (pos && isStorageError(err, 'Compacted')) throw status.expired(CONTINUE_EXPIRED_MESSAGE);
    throw interpretStorageError(err, { group: '', resource: 'deletedobjects' }, '');
  }
  const metadata: ApiList['metadata'] = { resourceVersion: String(revision) };
  if (scanned.next) metadata.continue = encodeContinue({ revision, start: scanned.next.slice(1) });
  return { apiVersion, kind: 'DeletedObjectList', metadata, items };
}
