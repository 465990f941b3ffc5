/** Query parameters shared by the handlers, parsed with Kubernetes' rules. */
import { goQuote, type FieldError } from '../../api/field-errors.js';
import * as status from '../../api/status.js';
import type { ListOptions } from '../../registry/generic/list-options.js';
import { queryBool, queryPretty } from '../../runtime/query-params.js';

/** Every boolean option of the query (watch, allowWatchBookmarks, orphanDependents, force…), never a 400. */
const boolParam = queryBool;

const INT64_MAX = 2n ** 63n - 1n;

/**
 * An integer option as Go's strconv.ParseInt(v, 10, 64) reads it (Kubernetes' query decoding): an
 * optional sign and decimal digits, within int64, else a 400 in its words. The first value counts.
 * Past 2^53 the number is the nearest double (a limit or a timeout that large means "no bound").
 */
function intParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!/^[+-]?\d+$/.test(v)) throw status.badRequest(`strconv.ParseInt: parsing ${goQuote(v)}: invalid syntax`);
  const n = BigInt(v);
  if (n > INT64_MAX || n < -INT64_MAX - 1n) throw status.badRequest(`strconv.ParseInt: parsing ${goQuote(v)}: value out of range`);
  return Number(n);
}

export function parseListQuery(q: URLSearchParams): ListOptions {
  const limit = intParam(q, 'limit');
  if (limit !== undefined && limit < 0) throw status.badRequest(`limit: Invalid value: ${limit}: must be greater than or equal to 0`);
  const timeoutSeconds = intParam(q, 'timeoutSeconds');
  if (timeoutSeconds !== undefined && timeoutSeconds < 0)
    throw status.badRequest(`timeoutSeconds: Invalid value: ${timeoutSeconds}: must be greater than or equal to 0`);
  return {
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
    resourceVersion: q.get('resourceVersion') ?? undefined,
    resourceVersionMatch: q.get('resourceVersionMatch') || undefined,
    limit,
    continue: q.get('continue') || undefined,
    watch: boolParam(q, 'watch'),
    allowWatchBookmarks: boolParam(q, 'allowWatchBookmarks'),
    sendInitialEvents: boolParam(q, 'sendInitialEvents'),
    timeoutSeconds,
  };
}

/** Kubernetes' answer to list options its validation refuses: an Invalid ListOptions of the meta group. */
export function invalidListOptions(metaGroup: string, errors: FieldError[]): status.ApiError {
  return status.invalid({ group: metaGroup, kind: 'ListOptions' }, '', errors);
}

/** dryRun=All (the only value Kubernetes accepts); absent = a real write. */
export function parseDryRun(values: string[]): boolean {
  for (const v of values) {
    if (v !== 'All') throw status.badRequest(`dryRun: Unsupported value: "${v}": supported values: "All"`);
  }
  return values.length > 0;
}

/**
 * The CreateOptions / UpdateOptions fields of a write's query as Go decodes and encodes them (empty
 * ones left out): what admission webhooks get as `request.options`. A patch's are its PatchOptions
 * made UpdateOptions (or CreateOptions), `force` left behind, as Kubernetes' patch handler does.
 */
export function writeQueryOptions(q: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const dryRun = q.getAll('dryRun');
  if (dryRun.length) out.dryRun = dryRun;
  const fieldManager = q.get('fieldManager');
  if (fieldManager) out.fieldManager = fieldManager;
  const fieldValidation = q.get('fieldValidation');
  if (fieldValidation) out.fieldValidation = fieldValidation;
  return out;
}

export function parsePretty(q: URLSearchParams): boolean {
  return queryPretty(q);
}

export { boolParam, intParam };
