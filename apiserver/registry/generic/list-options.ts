/**
 * List and watch options, and the resourceVersion / resourceVersionMatch rules of Kubernetes'
 * "semantics for get and list" and "semantics for watch" tables.
 */
import * as field from '../../api/field-errors.js';
import type { FieldError } from '../../api/field-errors.js';
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
  /** Watch: send the current state first, then a BOOKMARK marking its end (undefined: not given). */
  sendInitialEvents?: boolean;
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

/**
 * Kubernetes' defaulting of a watch's options while the WatchList gate is on: a watch from "" or "0"
 * naming neither sendInitialEvents nor resourceVersionMatch is a watch-list (it always began with
 * the current state; with bookmarks allowed it now also gets the bookmark that ends it).
 */
export function defaultWatchOptions(opts: ListOptions, watchList: boolean): void {
  if (!watchList || !opts.watch || opts.sendInitialEvents !== undefined || opts.resourceVersionMatch) return;
  if (opts.resourceVersion === undefined || opts.resourceVersion === '' || opts.resourceVersion === '0') {
    opts.sendInitialEvents = true;
    opts.resourceVersionMatch = 'NotOlderThan';
  }
}

/**
 * Kubernetes' ValidateListOptions for a watch (answered as an Invalid ListOptions): sendInitialEvents
 * needs resourceVersionMatch=NotOlderThan and the WatchList gate; resourceVersionMatch needs
 * sendInitialEvents, only NotOlderThan, and no continue token.
 */
export function validateWatchOptions(opts: ListOptions, watchList: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const match = opts.resourceVersionMatch ?? '';
  if (opts.sendInitialEvents !== undefined) {
    if (match !== 'NotOlderThan')
      errs.push(field.forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    if (!watchList)
      errs.push(
        field.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'),
      );
  }
  if (match) {
    if (opts.sendInitialEvents === undefined)
      errs.push(
        field.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'),
      );
    if (match !== 'NotOlderThan') errs.push(field.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
    if (opts.continue) errs.push(field.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return errs;
}

/** Kubernetes' ValidateListOptions for a list, as far as sendInitialEvents goes: it is a watch's option. */
export function validateListOnlyOptions(opts: ListOptions): FieldError[] {
  return opts.sendInitialEvents === undefined ? [] : [field.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list')];
}

/** Where a watch starts. */
export type WatchStart =
  /** Changes after the revision. */
  | { kind: 'after'; revision: number }
  /**
   * The current state first (as ADDED events), then changes after it: 'latest' — a consistent read;
   * 'any' — whatever the cache holds; a number — a state at least that new.
   */
  | { kind: 'initial'; freshness: 'latest' | 'any' | number }
  /** Changes from now on, no initial state (sendInitialEvents=false from "" or "0"); 'latest': the store's revision. */
  | { kind: 'now'; freshness: 'latest' | 'any' };

export interface WatchPlan {
  start: WatchStart;
  /** After the initial state, a BOOKMARK marking its end (sendInitialEvents=true with bookmarks allowed). */
  initialEventsEnd: boolean;
  /** Periodic BOOKMARKs (allowWatchBookmarks). */
  bookmarks: boolean;
}

/** Checks a watch's options (validateWatchOptions passed) and says where it starts. */
export function planWatch(opts: ListOptions): WatchPlan {
  if (opts.continue) throw status.badRequest('continue: Forbidden: continue is forbidden for watch');
  const rv = parseResourceVersion(opts.resourceVersion);
  const bookmarks = opts.allowWatchBookmarks === true;
  const freshness = rv === undefined ? 'latest' : 'any';
  let start: WatchStart;
  if (opts.sendInitialEvents === true) start = { kind: 'initial', freshness: rv ? rv : freshness };
  else if (rv) start = { kind: 'after', revision: rv };
  else start = opts.sendInitialEvents === false ? { kind: 'now', freshness } : { kind: 'initial', freshness };
  return { start, initialEventsEnd: opts.sendInitialEvents === true && bookmarks, bookmarks };
}
