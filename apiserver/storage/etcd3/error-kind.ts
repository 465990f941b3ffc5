import { isBrokenCircuitError, TaskCancelledError } from 'cockatiel';
import { ClientClosedError, EtcdWatchStreamEnded, isRecoverableError } from 'etcd3';

/** The storage failures an etcd client error stands for. */
export type EtcdErrorKind = 'Compacted' | 'FutureRevision' | 'Unavailable';

/**
 * Classifies an error from the etcd3 client: etcd's revision errors by their message, connection
 * trouble (gRPC unavailable/deadline/cancelled/internal, a closed client, an open circuit breaker
 * or a request whose time budget ran out, see fault-handling.ts) as Unavailable. (cockatiel 3.2's
 * isTaskCancelledError tests the wrong marker, hence instanceof.) Anything else (a caller bug such as an invalid argument) yields undefined.
 */
export function etcdErrorKind(err: unknown): EtcdErrorKind | undefined {
  if (!(err instanceof Error)) return undefined;
  if (err.message.includes('required revision has been compacted')) return 'Compacted';
  if (err.message.includes('required revision is a future revision')) return 'FutureRevision';
  if (
    isRecoverableError(err) ||
    err instanceof ClientClosedError ||
    err instanceof EtcdWatchStreamEnded ||
    isBrokenCircuitError(err) ||
    err instanceof TaskCancelledError
  ) {
    return 'Unavailable';
  }
  return undefined;
}
