/**
 * The watch of a kind with a batch conversion (a custom resource's conversion webhook): the watch cache
 * and the store hand out objects as stored, so each event is converted to the served version before it
 * goes out, in the order the events came. A conversion that fails ends the watch with an ERROR event
 * carrying its Status, as a watch ends on an object it cannot encode.
 */
import type { ApiObject, WatchEvent } from '../../api/object.js';
import type { ResourceDef } from '../../api/resource.js';
import * as status from '../../api/status.js';
import { servedObjects } from './conversion.js';
import type { WatchSink } from './watch.js';

export function convertingSink(def: ResourceDef, sink: WatchSink): WatchSink {
  let queue: Promise<void> = Promise.resolve();
  let failed = false;
  const convert = async (event: WatchEvent): Promise<WatchEvent> => {
    if (event.type === 'BOOKMARK' || event.type === 'ERROR') return event;
    // A store's watch sends stored objects; only the endpoints' views (Table, metadata) make other records.
    const [object] = await servedObjects(def, [event.object as ApiObject]);
    return { type: event.type, object };
  };
  return {
    send(event) {
      queue = queue.then(async () => {
        if (failed) return;
        try {
          sink.send(await convert(event));
        } catch (err) {
          failed = true;
          const apiErr = status.isApiError(err) ? err : status.internal(err);
          sink.send({ type: 'ERROR', object: apiErr.status });
          sink.close();
        }
      });
      return true;
    },
    close(reason) {
      queue = queue.then(() => {
        if (!failed) sink.close(reason);
      });
    },
    drained: sink.drained && (() => queue.then(() => sink.drained?.())),
  };
}
