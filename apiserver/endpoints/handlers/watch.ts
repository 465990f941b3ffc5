/**
 * WATCH: a chunked stream of `{"type":…,"object":…}` lines, or of length-prefixed protobuf WatchEvent
 * frames (`…protobuf;stream=watch`). Ends after timeoutSeconds (default: a
 * random time in [min-request-timeout, 2×min-request-timeout], as Kubernetes spreads reconnects), when
 * the client goes away, or after an ERROR event. A HEAD watch ends once it is established.
 */
import type { ApiObject, WatchEvent } from '../../api/object.js';
import type { FrameEncoder } from '../../storage/cacher/cached-object.js';
import { renderObject } from './render-view.js';
import type { RequestScope } from './scope.js';
import { invalidListOptions, parseListQuery } from './query.js';
import { defaultWatchOptions, validateWatchOptions } from '../../registry/generic/list-options.js';
import { DEFAULT_MAX_BACKLOG_BYTES, DEFAULT_WRITE_BYTES, WatchWriter } from './watch-writer.js';

/** How long an ended watch response may wait for its client to take the rest before the connection is closed. */
const END_GRACE_MS = 10_000;
/** The longest delay a Node timer holds (2^31 - 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;
const DEFAULT_LIMITS = { maxBacklogBytes: DEFAULT_MAX_BACKLOG_BYTES, writeBytes: DEFAULT_WRITE_BYTES };

export async function handleWatch(s: RequestScope): Promise<void> {
  const opts = { ...parseListQuery(s.query), watch: true };
  // As Kubernetes' handler: the WatchList gate's defaults first, then the options' validation.
  const watchList = s.api.watchList !== false;
  defaultWatchOptions(opts, watchList);
  const invalid = validateWatchOptions(opts, watchList);
  if (invalid.length) throw invalidListOptions(s.api.table.domain.metaGroup, invalid);
  const min = s.api.minRequestTimeoutSeconds;
  // 0 is the default, as in Kubernetes.
  const timeoutSeconds = opts.timeoutSeconds || Math.floor(min * (1 + Math.random()));
  if (s.info.name) opts.fieldSelector = `metadata.name=${s.info.name}`;
  const { res } = s;
  // Before anything is set up: past the user's limit this is a 429.
  const release = s.api.watchesPerUser?.acquire(s.ctx.user) ?? (() => {});
  res.once('close', release);
  let ended = false;
  let graceTimer: NodeJS.Timeout | undefined;
  const stopWatch = () => {
    if (ended) return false;
    ended = true;
    clearTimeout(timer);
    watch?.stop();
    return true;
  };
  // Ends the response once what is queued went out; a client that never takes it is cut off later.
  const end = () => {
    if (!stopWatch()) return;
    if (!res.headersSent) startStream();
    writer.finish();
    graceTimer = setTimeout(() => res.destroy(), END_GRACE_MS);
    graceTimer.unref();
  };
  let watch: { stop(): void } | undefined;
  const sent = s.api.metrics?.watchEvents(s.def.group, s.def.version, s.def.kind);
  // A longer delay than a timer holds would fire at once (Node makes it 1 ms): ~24.8 days is as good as decades.
  const timer = setTimeout(end, Math.min(timeoutSeconds * 1000, MAX_TIMER_MS));
  // Events sent in one tick leave together, at the end of the tick, in writes of bounded size.
  // A client that does not keep up is told so in the log (Kubernetes: at V(1)) and the metric.
  const unresponsive = (unread: Record<string, number>) => {
    s.api.metrics?.terminatedWatcher(s.def.group, s.def.plural);
    s.api.logger?.info('closing a watch its client does not keep up with', {
      resource: s.def.plural,
      namespace: s.info.namespace || undefined,
      user: s.ctx.user.name,
      ...unread,
    });
  };
  const writer = new WatchWriter(res, s.api.watchLimits ?? DEFAULT_LIMITS, (unreadBytes) => {
    stopWatch();
    unresponsive({ unreadBytes });
  });
  const sink = {
    send(ev: WatchEvent, frame?: (encoder?: FrameEncoder) => Buffer) {
      if (ended) return true;
      if (!res.headersSent) startStream();
      sent?.inc();
      // The cache's shared encoding fits the plain object view.
      return writer.push(frame && s.output.view === 'object' ? frame(encoder) : encodeEvent(inView(ev)));
    },
    close(reason?: 'unresponsive') {
      if (reason && !ended) unresponsive({});
      end();
    },
    drained: () => writer.drained(),
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
  res.on('close', () => {
    clearTimeout(graceTimer);
    stopWatch();
    writer.close();
  });
  try {
    watch = await s.store.watch(s.ctx, opts, sink);
  } catch (err) {
    clearTimeout(timer);
    ended = true;
    release();
    throw err;
  }
  if (ended) {
    watch.stop();
    return;
  }
  if (!res.headersSent) startStream();
  // A HEAD answer has no body, so its client takes it as complete with the headers: one left open
  // would hold the connection, and the client's next request on it would wait behind the stream.
  if (s.req.method === 'HEAD') end();
}
