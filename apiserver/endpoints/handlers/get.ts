import type { ServerResponse } from 'node:http';
import type { ApiList } from '../../api/object.js';
import type { RequestScope } from './scope.js';
import { respond } from './scope.js';
import { parseListQuery } from './query.js';
import { renderList, renderObject } from './render-view.js';
import { warningHeaders } from '../responses.js';
import { auditFrom } from '../request/request-audit.js';

/** GET/HEAD of one object (or its subresource view); a non-zero resourceVersion means "not older than". */
export async function handleGet(s: RequestScope): Promise<void> {
  const obj = await s.store.get(s.ctx, s.info.name, { resourceVersion: s.query.get('resourceVersion') ?? undefined });
  respond(s, 200, renderObject(s, obj), { headOnly: s.req.method === 'HEAD' });
}

/** LIST with selectors, paging and the resourceVersion rules. */
export async function handleList(s: RequestScope): Promise<void> {
  const opts = parseListQuery(s.query);
  // The APIListChunking gate off: every list is answered whole.
  if (s.api.listChunking === false) Object.assign(opts, { limit: undefined, continue: undefined });
  const list = await s.store.list(s.ctx, opts);
  // Streamed unless the audit logs the answer whole.
  const streamed = s.req.method === 'GET' && s.output.view === 'object' && s.encoding === 'json' && !s.pretty;
  if (streamed && !auditFrom(s.req)?.wantsResponse) return streamList(s, list);
  respond(s, 200, renderList(s, list), { headOnly: s.req.method === 'HEAD' });
}

/** Bytes of items encoded before they are written. */
const LIST_CHUNK_BYTES = 64 * 1024;

/**
 * A list as JSON, written in chunks as the client takes them: the same bytes as one encoding of the
 * whole list, without ever holding them all (a list of 10,000 objects is tens of megabytes).
 */
async function streamList(s: RequestScope, list: ApiList): Promise<void> {
  const { res } = s;
  if (s.warnings.length) res.setHeader('Warning', warningHeaders(s.warnings));
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json');
  const head = JSON.stringify({ ...list, items: [] });
  let chunk = head.slice(0, -2); // without the closing ']}'
  for (let i = 0; i < list.items.length && !res.destroyed; i++) {
    chunk += (i ? ',' : '') + JSON.stringify(list.items[i]);
    if (chunk.length < LIST_CHUNK_BYTES) continue;
    if (!res.write(chunk)) await drainedOrClosed(res);
    chunk = '';
  }
  res.end(`${chunk}]}\n`);
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}
