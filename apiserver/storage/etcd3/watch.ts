import type { IDuplexStream, IWatchRequest, IWatchResponse, WatchClient } from 'etcd3';
import { StorageError } from '../errors.js';
import type { WatchHandlers } from '../interfaces.js';
import { watchRange } from '../key-range.js';
import { WatchSink } from '../watch-sink.js';
import { toEvent } from './convert.js';

type WatchStream = IDuplexStream<IWatchRequest, IWatchResponse>;

export interface EtcdWatchHooks {
  /** Runs before the stream opens; what it throws fails the watch (used to refuse compacted starts). */
  precheck(): Promise<void>;
  /** etcd reported its compacted revision (the watch then fails with Compacted). */
  onCompacted(revision: number): void;
  /** The watch ended (stopped or failed) and released its stream. */
  onClose(): void;
}

/**
 * One etcd watch on its own raw gRPC stream, from afterRevision + 1 with previous values.
 *
 * The etcd3 client's Watcher is not used on purpose: after a disconnect it silently resumes from the
 * newest revision it has heard of (skipping undelivered events), and it reports compaction as a bare
 * error without the compacted revision. Here any stream failure ends the watch with 'Unavailable'
 * and a compaction with 'Compacted' (the caller resumes from its last delivered revision), so the
 * events delivered are always every event after afterRevision, in order, without gaps.
 */
export function watchEtcd(
  watchClient: WatchClient,
  prefix: string,
  afterRevision: number,
  handlers: WatchHandlers,
  hooks: EtcdWatchHooks,
): WatchSink {
  const range = watchRange(prefix);
  let stream: WatchStream | undefined;
  const sink: WatchSink = new WatchSink(handlers, () => {
    if (stream) closeStream(stream);
    hooks.onClose();
  });
  const unavailable = (cause: unknown): StorageError => new StorageError('Unavailable', prefix, { cause });

  const onResponse = (res: IWatchResponse): void => {
    const compactRevision = Number(res.compact_revision);
    if (compactRevision > 0) {
      hooks.onCompacted(compactRevision);
      sink.fail(new StorageError('Compacted', prefix, { revision: compactRevision, requestedRevision: afterRevision }));
      return;
    }
    if (res.canceled) {
      sink.fail(unavailable(new Error(`etcd canceled the watch: ${res.cancel_reason}`)));
      return;
    }
    for (const raw of res.events) {
      const event = toEvent(raw);
      if (!event) {
        // The previous value was compacted away between the precheck and the stream's start.
        sink.fail(new StorageError('Compacted', prefix, { requestedRevision: afterRevision }));
        return;
      }
      sink.push(event);
    }
  };

  const open = async (): Promise<void> => {
    await hooks.precheck();
    if (sink.closed) return;
    const opened = await watchClient.watch().catch((err: unknown) => Promise.reject(unavailable(err)));
    if (sink.closed) {
      closeStream(opened);
      return;
    }
    stream = opened;
    opened
      .on('data', onResponse)
      .on('error', (err) => sink.fail(unavailable(err)))
      .on('end', () => sink.fail(unavailable(new Error('etcd ended the watch stream'))));
    opened.write({
      create_request: {
        key: range.start,
        ...(range.end ? { range_end: range.end } : {}),
        start_revision: afterRevision + 1,
        prev_kv: true,
      },
    });
  };
  open().catch((err: unknown) => sink.fail(err instanceof Error ? err : unavailable(err)));
  return sink;
}

/**
 * Half-closes, then cancels the stream. Ending first matters: the etcd3 client treats an error on a
 * still-writable watch stream as a failed host and resets every connection to it.
 */
function closeStream(stream: WatchStream): void {
  stream.end();
  stream.cancel();
}
