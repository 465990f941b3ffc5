/**
 * Content negotiation: which media type to answer in (Accept) and how a body is encoded
 * (Content-Type): JSON, YAML and Kubernetes' protobuf envelope, the object itself or a view of it.
 */
import * as status from '../api/status.js';

export type Encoding = 'json' | 'yaml' | 'protobuf';

/** The protobuf media types: Kubernetes' own, for its clients, and the domain's name for it; both always. */
export const PROTOBUF_MEDIA_TYPES = ['application/vnd.kubernetes.protobuf', 'application/vnd.orch.protobuf'];

export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

export const SUPPORTED_MEDIA_TYPES = ['application/json', 'application/yaml', ...PROTOBUF_MEDIA_TYPES];

/** Accept headers parsed before: clients send the same few again and again. Cleared when full (clients choose the text). */
const parsedAccept = new Map<string, readonly Readonly<MediaRange>[]>();
const PARSED_ACCEPT_MAX = 256;

/** The media ranges of an Accept header, most preferred first; shared between requests, so read-only. */
export function parseAccept(header: string | undefined): readonly Readonly<MediaRange>[] {
  const key = header ?? '';
  let ranges = parsedAccept.get(key);
  if (ranges === undefined) {
    if (parsedAccept.size >= PARSED_ACCEPT_MAX) parsedAccept.clear();
    ranges = Object.freeze(parseRanges(header).map((r) => Object.freeze({ ...r, params: Object.freeze(r.params) })));
    parsedAccept.set(key, ranges);
  }
  return ranges;
}

function parseRanges(header: string | undefined): MediaRange[] {
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

/**
 * What the answer holds: the object itself, a Table, or metadata only: PartialObjectMetadata for one
 * object ('metadata'), PartialObjectMetadataList for a list ('metadata-list'). Asking one of them for
 * the other's answer is a 406 (render-view.ts).
 */
export type View = 'object' | 'table' | 'metadata' | 'metadata-list';

export interface Output {
  encoding: Encoding;
  /** The Content-Type of the answer: the media type asked for ("application/vnd.kubernetes.protobuf"). */
  mediaType: string;
  view: View;
  /** The view's apiVersion, e.g. "meta.orch.io/v1". */
  viewApiVersion: string;
}

const VIEWS: Record<string, View> = { Table: 'table', PartialObjectMetadata: 'metadata', PartialObjectMetadataList: 'metadata-list' };

const MEDIA_TYPES: Record<Encoding, string> = { json: 'application/json', yaml: 'application/yaml', protobuf: PROTOBUF_MEDIA_TYPES[0] };

function encodingOf(r: MediaRange): [Encoding, string] | undefined {
  if (r.type === '*' || (r.type === 'application' && (r.subtype === '*' || r.subtype === 'json'))) return ['json', MEDIA_TYPES.json];
  if (r.type === 'application' && r.subtype === 'yaml') return ['yaml', MEDIA_TYPES.yaml];
  const type = `${r.type}/${r.subtype}`;
  if (PROTOBUF_MEDIA_TYPES.includes(type)) return ['protobuf', type];
  return undefined;
}

/** The media type an encoding is answered in when nothing was negotiated (errors, defaults). */
export function mediaTypeOf(encoding: Encoding): string {
  return MEDIA_TYPES[encoding];
}

/**
 * The encoding and view of the answer, from the most preferred Accept range we can produce (q-values
 * first, then the order given); views are served in v1 and v1beta1 for each of the domain's view
 * groups (`g=meta.orch.io` or `g=meta.k8s.io`), answered in the group asked for. Protobuf is offered
 * for objects only when their kind has a protobuf form (`hasProtobuf()`, asked only then), for PartialObjectMetadata
 * always, for Tables never (as Kubernetes). Tables only when `hasTable`: a kind without a table form (Kubernetes'
 * storage without a TableConvertor: the reviews) skips Table ranges. 406 when nothing fits.
 */
export function negotiateOutput(
  accept: string | undefined,
  viewGroups: readonly string[],
  hasProtobuf: () => boolean = () => false,
  hasTable = true,
): Output {
  for (const r of parseAccept(accept)) {
    const found = encodingOf(r);
    if (!found) continue;
    const [encoding, mediaType] = found;
    if (!r.params.as) {
      if (encoding === 'protobuf' && !hasProtobuf()) continue;
      return { encoding, mediaType, view: 'object', viewApiVersion: '' };
    }
    const view = VIEWS[r.params.as];
    const version = r.params.v ?? '';
    const group = r.params.g ?? '';
    if (view === 'table' && (encoding === 'protobuf' || !hasTable)) continue;
    if (view && viewGroups.includes(group) && (version === 'v1' || version === 'v1beta1')) {
      return { encoding, mediaType, view, viewApiVersion: `${group}/${version}` };
    }
  }
  throw status.notAcceptable(SUPPORTED_MEDIA_TYPES);
}

/**
 * How an error Status is answered: in the first Accept range naming a media type we write without a
 * view (`as=` ranges skipped; protobuf only with a codec), else JSON — as Kubernetes negotiates errors
 * with its default endpoint restrictions.
 */
export function negotiateErrorOutput(accept: string | undefined, protobuf: boolean): { encoding: Encoding; mediaType: string } {
  for (const r of parseAccept(accept)) {
    if (r.params.as) continue;
    const found = encodingOf(r);
    if (!found || (found[0] === 'protobuf' && !protobuf)) continue;
    return { encoding: found[0], mediaType: found[1] };
  }
  return { encoding: 'json', mediaType: MEDIA_TYPES.json };
}

/** The body's media type without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}
