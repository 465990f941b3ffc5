/** Storage errors become API errors here, and only here. */
import { isStorageError } from '../../storage/errors.js';
import type { GroupResource } from '../../api/status.js';
import * as status from '../../api/status.js';

export function interpretStorageError(err: unknown, gr: GroupResource, name: string): unknown {
  if (!isStorageError(err)) return err;
  switch (err.code) {
    case 'KeyExists':
      return status.alreadyExists(gr, name);
    case 'KeyNotFound':
      return status.notFound(gr, name);
    case 'Conflict':
      return status.conflict(gr, name, status.OBJECT_MODIFIED);
    case 'Compacted':
      return status.expired(`too old resource version: ${err.requestedRevision ?? 0} (${err.revision ?? 0})`);
    case 'FutureRevision':
      return status.tooLargeResourceVersion(err.requestedRevision ?? 0, err.revision ?? 0);
    case 'Unavailable':
      return status.serviceUnavailable(`storage is unavailable: ${err.message}`);
  }
}
