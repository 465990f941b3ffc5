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
  /** The body's bytes in this encoding when the caller has them already (a cached object's JSON). */
  encoded?: Buffer;
}

export function encodeBody(body: unknown, encoding: Exclude<Encoding, 'protobuf'>, pretty = false): string {
  if (encoding === 'yaml') return YAML.stringify(body);
  return pretty ? `${JSON.stringify(body, null, 2)}\n` : `${JSON.stringify(body)}\n`;
}

/** Kubernetes' bounds on an answer's warnings (filters/warning.go): runes in all, and each once over it. */
export const WARNINGS_MAX_RUNES = 4 * 1024;
export const WARNING_TRUNCATED_RUNES = 256;

/**
 * A Warning header value, RFC 7234 style as Kubernetes sends it: `299 - "text"`. The text is quoted
 * as JSON, and every character beyond printable ASCII escaped as \uXXXX: Node refuses header
 * characters beyond U+00FF (and controls and DEL) and sends the rest as UTF-8 while its clients read
 * latin-1, so only ASCII arrives as it was sent.
 */
export function warningHeader(text: string): string {
  return `299 - ${JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}`;
}

/**
 * The Warning header values of an answer, bounded as Kubernetes' warning recorder bounds them: each
 * text once; once their runes exceed WARNINGS_MAX_RUNES, every warning is cut to
 * WARNING_TRUNCATED_RUNES and no more are added after that budget is spent again. A body of thousands
 * of unknown or duplicate fields gets a few kilobytes of warnings, not headers no client reads.
 */
export function warningHeaders(texts: readonly string[]): string[] {
  const unique = [...new Set(texts)].filter((t) => t !== '');
  const runes = unique.map((t) => [...t]);
  if (runes.reduce((n, r) => n + r.length, 0) <= WARNINGS_MAX_RUNES) return unique.map(warningHeader);
  const out: string[] = [];
  let written = 0;
  for (const r of runes) {
    if (written >= WARNINGS_MAX_RUNES) break;
    const cut = r.length > WARNING_TRUNCATED_RUNES ? r.slice(0, WARNING_TRUNCATED_RUNES) : r;
    written += cut.length;
    out.push(warningHeader(cut.join('')));
  }
  return out;
}

/**
 * The whole answer at once: the body encoded once, the status line and every header in one
 * writeHead (headers set earlier, e.g. Audit-Id, are kept), the body in one end — one write to the
 * socket.
 */
export function writeObject(res: ServerResponse, code: number, body: unknown, opts: WriteOptions): void {
  auditFrom(res.req)?.recordResponse(body);
  let bytes: string | Buffer;
  if (opts.encoded) bytes = opts.encoded;
  else if (opts.encoding !== 'protobuf') bytes = encodeBody(body, opts.encoding, opts.pretty);
  else if (opts.protobuf) bytes = opts.protobuf.encode(body as Record<string, unknown>);
  else throw new Error('a protobuf answer needs the protobuf codec');
  const headers: OutgoingHttpHeaders = {
    'Content-Type': opts.mediaType ?? mediaTypeOf(opts.encoding),
    'Content-Length': Buffer.byteLength(bytes),
  };
  if (opts.warnings?.length) headers.Warning = warningHeaders(opts.warnings);
  res.writeHead(code, headers);
  res.end(opts.headOnly ? undefined : bytes);
}

export function writeStatus(res: ServerResponse, s: Status, opts: Partial<WriteOptions> = {}): void {
  if (s.details?.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(s.details.retryAfterSeconds));
  writeObject(res, s.code, s, { ...opts, encoding: opts.encoding ?? 'json' });
}
