import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage } from '../../../../apiserver/api/field-errors.js';
import {
  defaultWatchOptions,
  type ListOptions,
  planWatch,
  validateListOnlyOptions,
  validateWatchOptions,
} from '../../../../apiserver/registry/generic/list-options.js';

/** The messages Kubernetes prints for each field error, in order. */
const messages = (opts: ListOptions, watchList = true) => validateWatchOptions(opts, watchList).map(errorMessage);

describe('watch options (Kubernetes 1.28 ValidateListOptions for a watch)', () => {
  it('accepts sendInitialEvents with resourceVersionMatch=NotOlderThan, with or without bookmarks (1.28 does not require them)', () => {
    assert.deepEqual(messages({ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true }), []);
    assert.deepEqual(messages({ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' }), []);
    assert.deepEqual(messages({ sendInitialEvents: false, resourceVersionMatch: 'NotOlderThan', resourceVersion: '5' }), []);
    assert.deepEqual(messages({ resourceVersion: '5' }), []);
  });

  it('needs resourceVersionMatch=NotOlderThan with sendInitialEvents', () => {
    assert.deepEqual(messages({ sendInitialEvents: true }), [
      'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    ]);
    assert.deepEqual(messages({ sendInitialEvents: true, resourceVersionMatch: 'Exact', resourceVersion: '1' }), [
      'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"',
    ]);
  });

  it('refuses resourceVersionMatch without sendInitialEvents, and with a continue token', () => {
    assert.deepEqual(messages({ resourceVersionMatch: 'NotOlderThan', resourceVersion: '1' }), [
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    ]);
    assert.deepEqual(messages({ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', continue: 'x' }), [
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
    ]);
  });

  it('refuses sendInitialEvents while the WatchList gate is off, whatever its value', () => {
    for (const sendInitialEvents of [true, false]) {
      assert.deepEqual(messages({ sendInitialEvents, resourceVersionMatch: 'NotOlderThan' }, false), [
        'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
      ]);
    }
  });

  it('refuses sendInitialEvents on a list', () => {
    assert.deepEqual(validateListOnlyOptions({ sendInitialEvents: false }).map(errorMessage), [
      'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
    ]);
    assert.deepEqual(validateListOnlyOptions({ resourceVersion: '0' }), []);
  });
});

describe('watch defaults with the WatchList gate', () => {
  const defaulted = (opts: ListOptions, gate = true) => {
    const o = { watch: true, ...opts };
    defaultWatchOptions(o, gate);
    return { sendInitialEvents: o.sendInitialEvents, resourceVersionMatch: o.resourceVersionMatch };
  };

  it('makes a watch from "" or "0" a watch-list at NotOlderThan', () => {
    for (const resourceVersion of [undefined, '', '0'])
      assert.deepEqual(defaulted({ resourceVersion }), { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' });
  });

  it('leaves a watch from a revision, one naming either option, and every watch with the gate off as they are', () => {
    assert.deepEqual(defaulted({ resourceVersion: '7' }), { sendInitialEvents: undefined, resourceVersionMatch: undefined });
    assert.deepEqual(defaulted({ sendInitialEvents: false }), { sendInitialEvents: false, resourceVersionMatch: undefined });
    assert.deepEqual(defaulted({ resourceVersionMatch: 'Exact' }), { sendInitialEvents: undefined, resourceVersionMatch: 'Exact' });
    assert.deepEqual(defaulted({}, false), { sendInitialEvents: undefined, resourceVersionMatch: undefined });
  });
});

describe('planWatch', () => {
  it('starts a watch-list from the state its resourceVersion asks for, with the end bookmark only when bookmarks are allowed', () => {
    const m = { resourceVersionMatch: 'NotOlderThan', sendInitialEvents: true };
    assert.deepEqual(planWatch({ ...m, allowWatchBookmarks: true }), {
      start: { kind: 'initial', freshness: 'latest' },
      initialEventsEnd: true,
      bookmarks: true,
    });
    assert.deepEqual(planWatch({ ...m, resourceVersion: '0' }), {
      start: { kind: 'initial', freshness: 'any' },
      initialEventsEnd: false,
      bookmarks: false,
    });
    assert.deepEqual(planWatch({ ...m, resourceVersion: '42', allowWatchBookmarks: true }).start, { kind: 'initial', freshness: 42 });
  });

  it('without initial events: changes after a revision, or from now on', () => {
    const m = { resourceVersionMatch: 'NotOlderThan', sendInitialEvents: false };
    assert.deepEqual(planWatch({ ...m, resourceVersion: '42' }).start, { kind: 'after', revision: 42 });
    assert.deepEqual(planWatch({ ...m }).start, { kind: 'now', freshness: 'latest' });
    assert.deepEqual(planWatch({ ...m, resourceVersion: '0' }).start, { kind: 'now', freshness: 'any' });
    assert.deepEqual(planWatch({ resourceVersion: '42' }).start, { kind: 'after', revision: 42 });
    assert.deepEqual(planWatch({}).start, { kind: 'initial', freshness: 'latest' });
  });
});
