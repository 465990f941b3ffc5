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
  if (!header?.trim()) return [{ type: '*', subtype: '*', params: {}, q: 1 }];
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

/** What the answer holds: the object itself, a Table, or metadata only (PartialObjectMetadata). */
export type View = 'object' | 'table' | 'metadata';

export interface Output {
  encoding: Encoding;
  view: View;
  /** The view's apiVersion, e.g. "meta.orch.io/v1". */
  viewApiVersion: string;
}

const VIEWS: Record<string, View> = { Table: 'table', PartialObjectMetadata: 'metadata', PartialObjectMetadataList: 'metadata' };

function encodingOf(r: MediaRange): Encoding | undefined {
  if (r.type === '*' || (r.type === 'application' && (r.subtype === '*' || r.subtype === 'json'))) return 'json';
  if (r.type === 'application' && r.subtype === 'yaml') return 'yaml';
  return undefined;
}

/**
 * The encoding and view of the answer, from the first Accept range we can produce; views are
 * served in v1 and v1beta1 for each of the domain's view groups (`g=meta.orch.io` or
 * `g=meta.k8s.io`), answered in the group asked for. 406 when nothing fits.
 */
export function negotiateOutput(accept: string | undefined, viewGroups: readonly string[]): Output {
  for (const r of parseAccept(accept)) {
    const encoding = encodingOf(r);
    if (!encoding) continue;
    if (!r.params.as) return { encoding, view: 'object', viewApiVersion: '' };
    const view = VIEWS[r.params.as];
    const version = r.params.v ?? '';
    const group = r.params.g ?? '';
    if (view && viewGroups.includes(group) && (version === 'v1' || version === 'v1beta1')) {
      return { encoding, view, viewApiVersion: `${group}/${version}` };
    }
  }
  throw status.notAcceptable(SUPPORTED_MEDIA_TYPES);
}

/** The body's media type without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}
