/**
 * Unary gRPC calls to etcd on HTTP/2 sessions of this module's own: a request is one POST of a
 * length-prefixed message, the answer one message and a grpc-status. grpc-js (under the etcd3 client)
 * spent ~110 µs of CPU more than this on each call (its channel, load-balancing and subchannel
 * layers, call credentials, filters, deadline bookkeeping): a fifth of what a create costs the
 * server. Watches, leases and compaction stay on the etcd3 client.
 *
 * Hosts are chosen as the etcd3 client's pool chooses them: in a fresh random order each try, past
 * the ones whose breaker (fault-handling.ts: a circuit per host) refuses; a failure that reached the
 * host ends the try (the retry policy around it tries again on a host picked afresh), and a
 * recoverable one drops the host's session so the next call connects anew. Errors are etcd3's own
 * (castGrpcError of the gRPC status and message), so the policy and the storage read them as before.
 */
import { type ClientHttp2Session, type ClientHttp2Stream, connect, constants } from 'node:http2';
import { castGrpcError, isRecoverableError } from 'etcd3';
import { isBrokenCircuitError, type IPolicy } from 'cockatiel';

/** gRPC status codes by number, for error messages in grpc-js' form ("14 UNAVAILABLE: …"). */
const STATUS_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];
const UNKNOWN = 2;
const DEADLINE_EXCEEDED = 4;
const INTERNAL = 13;
const UNAVAILABLE = 14;

/** Bytes etcd may send on a stream, and on a session, before the client reads them: lists are large. */
const WINDOW_BYTES = 16 * 1024 * 1024;

/** An etcd3 error for a gRPC status, as grpc-js would have reported it. */
export function grpcError(code: number, details: string): Error {
  const err = Object.assign(new Error(`${code} ${STATUS_NAMES[code] ?? 'UNKNOWN'}: ${details}`), { code, details });
  return castGrpcError(err);
}

/** A message in gRPC's framing: uncompressed, its length, itself. */
export function grpcFrame(message: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(5 + message.length);
  frame[0] = 0;
  frame.writeUInt32BE(message.length, 1);
  message.copy(frame, 5);
  return frame;
}

class Host {
  private session: ClientHttp2Session | undefined;

  constructor(
    readonly url: string,
    readonly breaker: IPolicy,
  ) {}

  /** The host's session, connecting when there is none (or it closed). */
  open(): ClientHttp2Session {
    const current = this.session;
    if (current && !current.closed && !current.destroyed) return current;
    const s = connect(this.url, { settings: { initialWindowSize: WINDOW_BYTES } });
    s.once('connect', () => s.setLocalWindowSize(WINDOW_BYTES));
    const drop = () => this.drop(s);
    s.on('error', drop).on('goaway', drop).on('close', drop);
    this.session = s;
    return s;
  }

  /** Forgets the session (destroying it and its streams): the next call connects again. */
  drop(s = this.session): void {
    if (!s) return;
    if (this.session === s) this.session = undefined;
    if (!s.destroyed) s.destroy();
  }
}

export class H2UnaryClient {
  private readonly hosts: Host[];
  private closed = false;

  /** @param breaker a new circuit breaker for a host (fault-handling.ts' host policy). */
  constructor(endpoints: readonly string[], breaker: (host: string) => IPolicy) {
    if (endpoints.length === 0) throw new Error('etcd: no endpoints');
    // A host without a scheme is plain HTTP, as the etcd3 client takes it.
    this.hosts = endpoints.map((url) => new Host(url.includes('://') ? url : `http://${url}`, breaker(url)));
  }

  /** One try of `method` with `request` (a serialized message): the answer's message, or etcd3's error. */
  async call(method: string, request: Buffer, deadlineMs: number): Promise<Buffer> {
    if (this.closed) throw grpcError(UNAVAILABLE, 'the etcd client is closed');
    const frame = grpcFrame(request);
    const start = Math.floor(Math.random() * this.hosts.length);
    let lastError: unknown;
    for (let i = 0; i < this.hosts.length; i++) {
      const host = this.hosts[(start + i) % this.hosts.length];
      let reached = false;
      try {
        return await host.breaker.execute(() => {
          reached = true;
          return callOnce(host.open(), method, frame, deadlineMs);
        });
      } catch (err) {
        if (err instanceof Error && isRecoverableError(err)) host.drop();
        if (reached) throw err;
        lastError = err;
      }
    }
    // Every breaker refused: the last refusal (cockatiel's BrokenCircuitError), as the etcd3 pool throws it.
    if (isBrokenCircuitError(lastError)) throw lastError;
    throw lastError instanceof Error ? lastError : grpcError(UNAVAILABLE, String(lastError));
  }

  close(): void {
    this.closed = true;
    for (const h of this.hosts) h.drop();
  }
}

/** One request on a session: resolves with the answer's message, rejects with an etcd3 error. */
function callOnce(session: ClientHttp2Session, method: string, frame: Buffer, deadlineMs: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    let stream: ClientHttp2Stream;
    try {
      stream = session.request({ ':method': 'POST', ':path': method, 'content-type': 'application/grpc', te: 'trailers' });
    } catch (err) {
      reject(grpcError(UNAVAILABLE, (err as Error).message));
      return;
    }
    let settled = false;
    const finish = (err: Error | undefined, message?: Buffer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(message!);
    };
    const timer = setTimeout(() => {
      finish(grpcError(DEADLINE_EXCEEDED, 'Deadline exceeded'));
      stream.close(constants.NGHTTP2_CANCEL);
    }, deadlineMs);
    let httpStatus = 0;
    let status: number | undefined;
    let details = '';
    const readStatus = (headers: Record<string, unknown>) => {
      if (headers['grpc-status'] === undefined) return;
      status = Number(headers['grpc-status']);
      details = decodeGrpcMessage(String(headers['grpc-message'] ?? ''));
    };
    const chunks: Buffer[] = [];
    stream.on('response', (headers) => {
      httpStatus = Number(headers[':status']);
      readStatus(headers);
    });
    stream.on('trailers', readStatus);
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', (err) => finish(grpcError(UNAVAILABLE, err.message)));
    stream.on('close', () => {
      if (settled) return;
      if (status === undefined) {
        const code = httpStatus !== 0 && httpStatus !== 200 ? UNKNOWN : UNAVAILABLE;
        return finish(grpcError(code, `stream closed without a gRPC status (HTTP ${httpStatus}, RST ${stream.rstCode})`));
      }
      if (status !== 0) return finish(grpcError(status, details));
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      if (body.length < 5 || body[0] !== 0) return finish(grpcError(INTERNAL, 'etcd answered a compressed or malformed message'));
      const length = body.readUInt32BE(1);
      if (body.length !== 5 + length)
        return finish(grpcError(INTERNAL, `etcd answered ${body.length - 5} bytes for a ${length}-byte message`));
      finish(undefined, body.subarray(5));
    });
    stream.end(frame);
  });
}

/** grpc-message is percent-encoded (gRPC over HTTP/2); a malformed one is kept as it came. */
function decodeGrpcMessage(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
