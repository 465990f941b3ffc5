/**
 * The watch of a kind with a batch conversion (a custom resource's conversion webhook): the watch cache
 * and the store hand out objects as stored, so each event is converted to the served version before it
 * goes out, in the order the events came. A conversion that fails ends the watch with an ERROR event
 * carrying its Status, as a watch ends on an object it cannot encode. While many events wait for
 * their conversion, send() answers false, so a watch's initial events wait instead of piling up.
 */
import type { ApiObject, WatchEvent } from '../../api/object.js';
import type { ResourceDef } from '../../api/resource.js';
import * as status from '../../api/status.js';
import { servedObjects } from './conversion.js';
import type { WatchSink } from './watch.js';

/** Events that may wait for their conversion before the sender is told to wait (initial events stream at the client's pace). */
export const MAX_PENDING_CONVERSIONS = 100;

export function convertingSink(def: ResourceDef, sink: WatchSink): WatchSink {
  let queue: Promise<void> = Promise.resolve();
  let failed = false;
  let pending = 0;
  const convert = async (event: WatchEvent): Promise<WatchEvent> => {
    if (event.type === 'BOOKMARK' || event.type === 'ERROR') return event;
    // A store's watch sends stored objects; only the endpoints' views (Table, metadata) make other records.
    const [object] = await servedObjects(def, [event.object as ApiObject]);
    return { type: event.type, object };
  };
  return {
    send(event) {
      pending++;
      queue = queue.then(async () => {
        try {
          if (failed) return;
          sink.send(await convert(event));
        } catch (err) {
          failed = true;
          const apiErr = status.isApiError(err) ? err : status.internal(err);
          sink.send({ type: 'ERROR', object: apiErr.status });
          sink.close();
        } finally {
          pending--;
        }
      });
      // Too many waiting: the sender waits for drained() (the conversions, then the client).
      return pending < MAX_PENDING_CONVERSIONS;
    },
    close(reason) {
      queue = queue.then(() => {
        if (!failed) sink.close(reason);
      });
    },
    drained: sink.drained && (() => queue.then(() => sink.drained?.())),
  };
}
