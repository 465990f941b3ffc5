/**
 * Content negotiation: which media type to answer in (Accept) and how a body is encoded
 * (Content-Type). JSON and YAML now; Table and protobuf plug in here.
 */
import * as status from '../api/status.js';

export type Encoding = 'json' | 'yaml';

export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

export const SUPPORTED_MEDIA_TYPES = ['application/json', 'application/yaml'];

export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header || !header.trim()) return [{ type: '*', subtype: '*', params: {}, q: 1 }];
  const ranges: MediaRange[] = [];
  for (const clause of header.split(',')) {
    const [mime, ...rawParams] = clause.trim().split(';');
    const [type, subtype] = mime.trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of rawParams) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim().toLowerCase();
      const v = p.slice(eq + 1).trim();
      if (k === 'q') q = Number(v);
      else params[k] = v;
    }
    if (q > 0) ranges.push({ type, subtype, params, q });
  }
  return ranges.sort((a, b) => b.q - a.q);
}

/** The encoding of the answer; 406 when the client accepts nothing we produce. */
export function negotiateOutput(accept: string | undefined): Encoding {
  for (const r of parseAccept(accept)) {
    if (r.params.as) continue; // Table and other transformed views: not served here yet, try the next range
    if (r.type === '*' || (r.type === 'application' && (r.subtype === '*' || r.subtype === 'json'))) return 'json';
    if (r.type === 'application' && r.subtype === 'yaml') return 'yaml';
  }
  throw status.notAcceptable(SUPPORTED_MEDIA_TYPES);
}

/** The body's media type without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}
