/**
 * List and watch options, and the resourceVersion / resourceVersionMatch rules of Kubernetes'
 * "semantics for get and list" and "semantics for watch" tables.
 */
import * as status from '../../api/status.js';

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: number;
  continue?: string;
  watch?: boolean;
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number;
}

/** How a list is to be read. */
export type ReadPlan =
  | { kind: 'latest' } // rv unset: most recent, a consistent read
  | { kind: 'any' } // rv "0": any state (served as the latest)
  | { kind: 'notOlderThan'; revision: number }
  | { kind: 'exact'; revision: number }
  | { kind: 'continue'; token: string };

/** Parses a resourceVersion ("" = unset). 400 for anything but a non-negative integer. */
export function parseResourceVersion(rv: string | undefined): number | undefined {
  if (rv === undefined || rv === '') return undefined;
  if (!/^\d+$/.test(rv) || !Number.isSafeInteger(Number(rv))) throw status.badRequest(`invalid resource version "${rv}"`);
  return Number(rv);
}

/** Checks a list's options against the table and says how to read it. */
export function planList(opts: ListOptions): ReadPlan {
  const rv = parseResourceVersion(opts.resourceVersion);
  const match = opts.resourceVersionMatch ?? '';
  if (match && match !== 'Exact' && match !== 'NotOlderThan') {
    throw status.badRequest(`resourceVersionMatch: Unsupported value: "${match}": supported values: "Exact", "NotOlderThan"`);
  }
  if (opts.continue) {
    // "0" is allowed with a token (Kubernetes' etcd3 store): the list continues at the token's revision.
    if (rv !== undefined && rv !== 0) throw status.badRequest('specifying resource version is not allowed when using continue');
    if (match) throw status.badRequest('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided');
    return { kind: 'continue', token: opts.continue };
  }
  if (match) {
    if (rv === undefined)
      throw status.badRequest('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
    if (match === 'Exact') {
      if (rv === 0)
        throw status.badRequest('resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
      return { kind: 'exact', revision: rv };
    }
    return rv === 0 ? { kind: 'any' } : { kind: 'notOlderThan', revision: rv };
  }
  if (rv === undefined) return { kind: 'latest' };
  if (rv === 0) return { kind: 'any' };
  // The legacy cell: a limit with a non-zero resourceVersion and no match is an exact read at it.
  return opts.limit !== undefined && opts.limit > 0 ? { kind: 'exact', revision: rv } : { kind: 'notOlderThan', revision: rv };
}

/** Checks a watch's options; returns the revision to follow after (undefined: start with the current state). */
export function planWatch(opts: ListOptions): number | undefined {
  if (opts.resourceVersionMatch) throw status.badRequest('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch');
  if (opts.continue) throw status.badRequest('continue: Forbidden: continue is forbidden for watch');
  const rv = parseResourceVersion(opts.resourceVersion);
  return rv === 0 ? undefined : rv;
}
