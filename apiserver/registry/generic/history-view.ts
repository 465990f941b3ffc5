/**
 * The `history` subresource of every kind, as the generic store serves it (ledger-history.ts reads
 * the ledger): GET …/<resource>/<name>/history lists the object's revisions newest first as an
 * ObjectRevisionList of history.<domain>/v1, paged with limit/continue like any list;
 * `?resourceVersion=RV` answers the object exactly as it was at RV instead (410 Expired once RV
 * left the --history-retention window, 404 when the object did not exist then).
 */
import type { ApiObject } from '../../api/object.js';
import * as status from '../../api/status.js';
import type { GroupResource } from '../../api/status.js';
import type { ApiDomain } from '../../api/domain.js';
import { CONTINUE_EXPIRED_MESSAGE, decodeContinue, encodeContinue } from './continue-token.js';
import { interpretStorageError } from './storage-errors.js';
import { isStorageError } from '../../storage/errors.js';
import { keyAt, readHistory, type HistorySource, type ObjectRevision } from './ledger-history.js';

export const HISTORY_SUBRESOURCE = 'history';
export const HISTORY_LIST_KIND = 'ObjectRevisionList';
export const HISTORY_VERSION = 'v1';
/** The `start` every history continue token carries (the token's position is its revision). */
const HISTORY_START = 'history';

/** history.orch.io (history.k8s.io with --api-domain=k8s.io). */
export function historyGroup(domain: ApiDomain): string {
  return domain.group('history.k8s.io');
}

export interface HistoryQuery {
  limit?: number;
  continue?: string;
  resourceVersion?: string;
}

export interface ObjectRevisionList {
  apiVersion: string;
  kind: typeof HISTORY_LIST_KIND;
  metadata: { resourceVersion: string; continue?: string };
  items: ObjectRevision[];
}

/** The object's revisions, one page. */
export async function historyList(
  src: HistorySource,
  domain: ApiDomain,
  gr: GroupResource,
  objectKey: string,
  name: string,
  query: HistoryQuery,
): Promise<ObjectRevisionList> {
  const from = query.continue ? decodeContinue(query.continue).revision : undefined;
  if (from === -1) throw status.badRequest('continue key is not valid: a history continues at a revision');
  let page: Awaited<ReturnType<typeof readHistory>>;
  try {
    page = await readHistory(src, objectKey, { limit: query.limit, from });
  } catch (err) {
    if (from !== undefined && isStorageError(err, 'Compacted')) throw status.expired(CONTINUE_EXPIRED_MESSAGE);
    throw interpretStorageError(err, gr, name);
  }
  if (!page.found) throw status.notFound(gr, name);
  const metadata: ObjectRevisionList['metadata'] = { resourceVersion: String(page.revision) };
  if (page.next) metadata.continue = encodeContinue({ revision: page.next, start: HISTORY_START });
  return { apiVersion: `${historyGroup(domain)}/${HISTORY_VERSION}`, kind: HISTORY_LIST_KIND, metadata, items: page.items };
}

/** The object as it was at a revision. */
export async function objectAtRevision(
  src: HistorySource,
  gr: GroupResource,
  objectKey: string,
  name: string,
  resourceVersion: string,
): Promise<ApiObject> {
  const revision = Number(resourceVersion);
  if (!/^[1-9][0-9]*$/.test(resourceVersion) || !Number.isSafeInteger(revision)) {
    throw status.badRequest(`invalid resource version: ${JSON.stringify(resourceVersion)}`);
  }
  let kv: Awaited<ReturnType<typeof keyAt>>;
  try {
    kv = await keyAt(src.storage, objectKey, revision);
  } catch (err) {
    throw interpretStorageError(err, gr, name);
  }
  if (!kv) throw status.notFound(gr, name);
  return src.decode(kv);
}
