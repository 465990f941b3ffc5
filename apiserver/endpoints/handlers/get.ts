import type { ServerResponse } from 'node:http';
import type { ApiList } from '../../api/object.js';
import type { RequestScope } from './scope.js';
import { respond } from './scope.js';
import { invalidListOptions, parseListQuery } from './query.js';
import { validateListOnlyOptions } from '../../registry/generic/list-options.js';
import { renderAnswer, renderList } from './render-view.js';
import { warningHeaders } from '../responses.js';
import { auditFrom } from '../request/request-audit.js';
import { objectJson } from '../../storage/cacher/cached-object.js';
import { bulkChunkBytes, bulkStreamStarted, bulkTurn } from './bulk-budget.js';

/**
 * GET/HEAD of one object (or its subresource view); a non-zero resourceVersion means "not older
 * than". An object of the watch cache answered as JSON is written from the encoding it keeps for
 * lists (objectJson): encoded once for all of its readers, not once per GET.
 */
export async function handleGet(s: RequestScope): Promise<void> {
  const obj = await s.store.get(s.ctx, s.info.name, { resourceVersion: s.query.get('resourceVersion') ?? undefined });
  const body = renderAnswer(s, obj);
  const encoded = body === obj && s.encoding === 'json' && !s.pretty ? Buffer.concat([objectJson(obj), NEWLINE]) : undefined;
  respond(s, 200, body, { headOnly: s.req.method === 'HEAD', encoded });
}

const NEWLINE = Buffer.from('\n');

/** LIST with selectors, paging and the resourceVersion rules. */
export async function handleList(s: RequestScope): Promise<void> {
  const opts = parseListQuery(s.query);
  const invalid = validateListOnlyOptions(opts);
  if (invalid.length) throw invalidListOptions(s.api.table.domain.metaGroup, invalid);
  // The APIListChunking gate off: every list is answered whole.
  if (s.api.listChunking === false) Object.assign(opts, { limit: undefined, continue: undefined });
  const list = await s.store.list(s.ctx, opts);
  // Streamed unless the audit logs the answer whole.
  const streamed = s.req.method === 'GET' && s.output.view === 'object' && s.encoding === 'json' && !s.pretty;
  if (streamed && !auditFrom(s.req)?.wantsResponse) return streamList(s, list);
  respond(s, 200, renderList(s, list), { headOnly: s.req.method === 'HEAD' });
}

const COMMA = Buffer.from(',');

/**
 * A list as JSON, written in chunks as the client takes them: the same bytes as one encoding of the
 * whole list, without ever holding them all (a list of 10,000 objects is tens of megabytes). Items
 * of the watch cache bring their JSON encoded once for every list (objectJson); others are encoded
 * here, in chunks of bulkChunkBytes: small (16 KiB, well under a millisecond to encrypt and write)
 * while other lists stream, bigger alone. Each chunk waits for room in the loop's turn
 * (bulk-budget.ts) and then while the socket still holds one: a fast client would otherwise take
 * a list of 5,000 objects in one turn (tens of milliseconds, encrypted in one writev), and every
 * other request, of any priority level, would wait behind it.
 */
async function streamList(s: RequestScope, list: ApiList): Promise<void> {
  const { res } = s;
  if (s.warnings.length) res.setHeader('Warning', warningHeaders(s.warnings));
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json');
  const head = JSON.stringify({ ...list, items: [] });
  const start = Buffer.from(head.slice(0, -2)); // without the closing ']}'
  const finished = bulkStreamStarted();
  try {
    await writeItems(res, list, [start], start.length);
  } finally {
    finished();
  }
}

/** The items after the list's head (parts, bytes long so far), chunk by chunk, and the list's end. */
async function writeItems(res: ServerResponse, list: ApiList, parts: Buffer[], bytes: number): Promise<void> {
  for (let i = 0; i < list.items.length && !res.destroyed; i++) {
    const item = objectJson(list.items[i]);
    if (i) {
      parts.push(COMMA);
      bytes++;
    }
    parts.push(item);
    bytes += item.length;
    const chunk = bulkChunkBytes();
    if (bytes < chunk) continue;
    await bulkTurn(bytes);
    if (!res.write(Buffer.concat(parts, bytes)) || res.writableLength > chunk) await drainedOrClosed(res);
    parts = [];
    bytes = 0;
  }
  parts.push(LIST_END);
  res.end(Buffer.concat(parts));
}

const LIST_END = Buffer.from(']}\n');

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.writableLength === 0) return resolve();
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}
