/** Writing answers: objects and Status errors in the negotiated encoding, with warnings. */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import YAML from 'yaml';
import type { Status } from '../api/status.js';
import type { ProtobufCodec } from '../runtime/protobuf/codec.js';
import { type Encoding, mediaTypeOf } from './negotiation.js';
import { auditFrom } from './request/request-audit.js';

export interface WriteOptions {
  encoding: Encoding;
  /** The Content-Type when not the encoding's usual one (the protobuf media type asked for). */
  mediaType?: string;
  /** Encodes protobuf answers (required with encoding 'protobuf', except for a Status). */
  protobuf?: ProtobufCodec;
  pretty?: boolean;
  warnings?: string[];
  /** HEAD: headers only. */
  headOnly?: boolean;
}

export function encodeBody(body: unknown, encoding: Exclude<Encoding, 'protobuf'>, pretty = false): string {
  if (encoding === 'yaml') return YAML.stringify(body);
  return pretty ? `${JSON.stringify(body, null, 2)}\n` : `${JSON.stringify(body)}\n`;
}

/** A Warning header value, RFC 7234 style as Kubernetes sends it: `299 - "text"`. */
export function warningHeader(text: string): string {
  return `299 - ${JSON.stringify(text)}`;
}

/**
 * The whole answer at once: the body encoded once, the status line and every header in one
 * writeHead (headers set earlier, e.g. Audit-Id, are kept), the body in one end — one write to the
 * socket.
 */
export function writeObject(res: ServerResponse, code: number, body: unknown, opts: WriteOptions): void {
  auditFrom(res.req)?.recordResponse(body);
  let bytes: string | Buffer;
  if (opts.encoding !== 'protobuf') bytes = encodeBody(body, opts.encoding, opts.pretty);
  else if (opts.protobuf) bytes = opts.protobuf.encode(body as Record<string, unknown>);
  else throw new Error('a protobuf answer needs the protobuf codec');
  const headers: OutgoingHttpHeaders = {
    'Content-Type': opts.mediaType ?? mediaTypeOf(opts.encoding),
    'Content-Length': Buffer.byteLength(bytes),
  };
  if (opts.warnings?.length) headers.Warning = opts.warnings.map(warningHeader);
  res.writeHead(code, headers);
  res.end(opts.headOnly ? undefined : bytes);
}

export function writeStatus(res: ServerResponse, s: Status, opts: Partial<WriteOptions> = {}): void {
  if (s.details?.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(s.details.retryAfterSeconds));
  writeObject(res, s.code, s, { ...opts, encoding: opts.encoding ?? 'json' });
}
