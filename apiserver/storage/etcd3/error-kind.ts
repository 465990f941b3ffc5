import { ClientClosedError, EtcdWatchStreamEnded, isRecoverableError } from 'etcd3';

/** The storage failures an etcd client error stands for. */
export type EtcdErrorKind = 'Compacted' | 'FutureRevision' | 'Unavailable';

/**
 * Classifies an error from the etcd3 client: etcd's revision errors by their message, connection
 * trouble (gRPC unavailable/deadline/cancelled/internal, a closed client, or the client's circuit
 * breaker, which after three failures in a row refuses requests to a host for 5 s) as Unavailable. Anything else (a caller bug such as an invalid argument) yields undefined.
 */
export function etcdErrorKind(err: unknown): EtcdErrorKind | undefined {
  if (!(err instanceof Error)) return undefined;
  if (err.message.includes('required revision has been compacted')) return 'Compacted';
  if (err.message.includes('required revision is a future revision')) return 'FutureRevision';
  if (isRecoverableError(err) || err instanceof ClientClosedError || err instanceof EtcdWatchStreamEnded || isBrokenCircuit(err)) {
    return 'Unavailable';
  }
  return undefined;
}

/** cockatiel's BrokenCircuitError (the etcd3 client's fault handling), recognised by its marker. */
function isBrokenCircuit(err: Error): boolean {
  return (err as Error & { isBrokenCircuitError?: unknown }).isBrokenCircuitError === true;
}
