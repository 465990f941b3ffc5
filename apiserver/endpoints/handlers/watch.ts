/**
 * WATCH: a chunked stream of `{"type":…,"object":…}` lines, or of length-prefixed protobuf WatchEvent
 * frames (`…protobuf;stream=watch`). Ends after timeoutSeconds (default: a
 * random time in [min-request-timeout, 2×min-request-timeout], as Kubernetes spreads reconnects), when
 * the client goes away, or after an ERROR event.
 */
import type { ApiObject, WatchEvent } from '../../api/object.js';
import type { FrameEncoder } from '../../storage/cacher/cached-object.js';
import { renderObject } from './render-view.js';
import type { RequestScope } from './scope.js';
import { parseListQuery } from './query.js';

export async function handleWatch(s: RequestScope): Promise<void> {
  const opts = parseListQuery(s.query);
  const min = s.api.minRequestTimeoutSeconds;
  const timeoutSeconds = opts.timeoutSeconds ?? Math.floor(min * (1 + Math.random()));
  if (s.info.name) opts.fieldSelector = `metadata.name=${s.info.name}`;
  const { res } = s;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    watch?.stop();
    res.end();
  };
  let watch: { stop(): void } | undefined;
  const sent = s.api.metrics?.watchEvents(s.def.group, s.def.version, s.def.kind);
  const timer = setTimeout(end, timeoutSeconds * 1000);
  // Events sent in one tick leave in one write (one TLS record, one syscall), at the end of the tick.
  let batch: Buffer[] = [];
  let batchBytes = 0;
  const writeBatch = () => {
    if (!ended) res.write(batch.length === 1 ? batch[0] : Buffer.concat(batch, batchBytes));
    batch = [];
    batchBytes = 0;
  };
  const sink = {
    send(ev: WatchEvent, frame?: (encoder?: FrameEncoder) => Buffer) {
      if (ended) return true;
      if (!res.headersSent) startStream();
      sent?.inc();
      // The cache's shared encoding fits the plain object view.
      const bytes = frame && s.output.view === 'object' ? frame(encoder) : encodeEvent(inView(ev));
      if (batch.length === 0) process.nextTick(writeBatch);
      batch.push(bytes);
      batchBytes += bytes.length;
      return res.writableLength + batchBytes < res.writableHighWaterMark;
    },
    close: end,
    // After the batch is written: at once unless the response still has to drain.
    drained: () =>
      new Promise<void>((resolve) => process.nextTick(() => (res.writableNeedDrain && !ended ? res.once('drain', resolve) : resolve()))),
  };
  const encoder = s.encoding === 'protobuf' ? s.api.protobuf : undefined;
  const encodeEvent = (ev: WatchEvent): Buffer =>
    encoder ? encoder.watchFrame(ev.type, ev.object as ApiObject) : Buffer.from(`${JSON.stringify(ev)}\n`);
  // Views (Table, metadata) apply to object events; a Table carries its column definitions once.
  let headersWritten = false;
  const inView = (ev: WatchEvent): WatchEvent => {
    if (s.output.view === 'object' || ev.type === 'BOOKMARK' || ev.type === 'ERROR') return ev;
    // Each row at the time it is sent (its AGE), not when the watch began.
    const object = renderObject(s, ev.object as ApiObject, headersWritten, new Date()) as Record<string, unknown>;
    headersWritten = true;
    return { type: ev.type, object };
  };
  const startStream = () => {
    res.statusCode = 200;
    res.setHeader('Content-Type', encoder ? `${s.output.mediaType};stream=watch` : 'application/json');
    res.setHeader('Transfer-Encoding', 'chunked');
    res.setHeader('Cache-Control', 'no-cache, private');
    res.flushHeaders();
  };
  s.req.on('close', end);
  res.on('close', end);
  try {
    watch = await s.store.watch(s.ctx, opts, sink);
  } catch (err) {
    clearTimeout(timer);
    ended = true;
    throw err;
  }
  if (ended) {
    watch.stop();
    return;
  }
  if (!res.headersSent) startStream();
}
