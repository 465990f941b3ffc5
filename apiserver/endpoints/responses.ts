/** Writing answers: objects and Status errors in the negotiated encoding, with warnings. */
import type { ServerResponse } from 'node:http';
import YAML from 'yaml';
import type { Status } from '../api/status.js';
import type { Encoding } from './negotiation.js';
import { auditFrom } from './request/request-audit.js';

export interface WriteOptions {
  encoding: Encoding;
  pretty?: boolean;
  warnings?: string[];
  /** HEAD: headers only. */
  headOnly?: boolean;
}

const CONTENT_TYPES: Record<Encoding, string> = { json: 'application/json', yaml: 'application/yaml' };

export function encodeBody(body: unknown, encoding: Encoding, pretty = false): string {
  if (encoding === 'yaml') return YAML.stringify(body);
  return pretty ? `${JSON.stringify(body, null, 2)}\n` : `${JSON.stringify(body)}\n`;
}

/** A Warning header value, RFC 7234 style as Kubernetes sends it: `299 - "text"`. */
export function warningHeader(text: string): string {
  return `299 - ${JSON.stringify(text)}`;
}

export function writeObject(res: ServerResponse, code: number, body: unknown, opts: WriteOptions): void {
  auditFrom(res.req)?.recordResponse(body);
  const text = encodeBody(body, opts.encoding, opts.pretty);
  if (opts.warnings?.length) res.setHeader('Warning', opts.warnings.map(warningHeader));
  res.statusCode = code;
  res.setHeader('Content-Type', CONTENT_TYPES[opts.encoding]);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(opts.headOnly ? undefined : text);
}

export function writeStatus(res: ServerResponse, s: Status, opts: Partial<WriteOptions> = {}): void {
  if (s.details?.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(s.details.retryAfterSeconds));
  writeObject(res, s.code, s, { encoding: opts.encoding ?? 'json', pretty: opts.pretty, warnings: opts.warnings, headOnly: opts.headOnly });
}
