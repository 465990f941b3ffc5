/**
 * GET of one object: a non-zero resourceVersion means "not older than" (waits for the store to get
 * there); served from the watch cache when it is loaded and fresh enough, else read from the store.
 */
import type { ApiObject } from '../../api/object.js';
import * as status from '../../api/status.js';
import type { KeyValue } from '../../storage/interfaces.js';
import type { Cacher } from '../../storage/cacher/cacher.js';
import type { ReadSource } from './read-source.js';
import type { RequestContext } from './request-context.js';
import { parseResourceVersion } from './list-options.js';
import { waitForRevision } from './wait-for-revision.js';
import { interpretStorageError } from './storage-errors.js';

export interface GetOptions {
  /** Unset: the latest (a consistent read); "0": any; N: not older than N. */
  resourceVersion?: string;
}

export async function getObject(
  store: ReadSource,
  ctx: RequestContext,
  name: string,
  opts: GetOptions,
  cacher?: Cacher,
): Promise<ApiObject> {
  const rv = parseResourceVersion(opts.resourceVersion);
  if (rv) await waitForRevision(store.storage, rv);
  return (await getFromCache(store, ctx, name, rv, cacher)) ?? (await getFromStorage(store, ctx, name));
}

/** The object from the watch cache when it can answer for rv; undefined when the store has to. */
async function getFromCache(
  store: ReadSource,
  ctx: RequestContext,
  name: string,
  rv: number | undefined,
  cacher: Cacher | undefined,
): Promise<ApiObject | undefined> {
  const cache = cacher && (await cacher.readable(store, rv === undefined ? 'latest' : rv === 0 ? 'any' : rv, { wait: false }));
  if (!cache) return undefined;
  const obj = cache.get(store.keys.objectKey(ctx.namespace, name));
  if (!obj) throw status.notFound(store.groupResource, name);
  return obj;
}

async function getFromStorage(store: ReadSource, ctx: RequestContext, name: string): Promise<ApiObject> {
  let kv: KeyValue | null;
  try {
    kv = await store.storage.get(store.keys.objectKey(ctx.namespace, name));
  } catch (err) {
    throw interpretStorageError(err, store.groupResource, name);
  }
  if (!kv) throw status.notFound(store.groupResource, name);
  return store.decode(kv);
}
