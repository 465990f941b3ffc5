import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Reflector, type ReflectorStore } from '../../../../controllers/informers/reflector.js';
import type { ResourceClient, WatchOptions } from '../../../../controllers/client/api-client.js';
import type { ApiList, ApiObject, WatchEvent } from '../../../../apiserver/api/object.js';
import { ApiError } from '../../../../apiserver/api/status.js';

const obj = (name: string, rv: string): ApiObject => ({ metadata: { name, namespace: 'ns', uid: name, resourceVersion: rv } });
const list = (rv: string, ...items: ApiObject[]): ApiList => ({
  apiVersion: 'v1',
  kind: 'ConfigMapList',
  metadata: { resourceVersion: rv },
  items,
});
const gone = {
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  reason: 'Expired',
  code: 410,
  message: 'too old resource version: 1 (5)',
};

/**
 * A resource whose lists and watches are scripted: each list() / watch() call takes the next entry
 * (a value, or an error to throw). Watch calls are recorded with their options.
 */
function scripted(lists: (ApiList | Error)[], watches: (WatchEvent[] | Error)[], stop: AbortController) {
  const watchCalls: WatchOptions[] = [];
  const listCalls: number[] = [];
  const resource = {
    async listAll(_opts: unknown, pageSize: number) {
      listCalls.push(pageSize);
      const next = lists.shift();
      if (!next) return new Promise<ApiList>(() => stop.abort());
      if (next instanceof Error) throw next;
      return next;
    },
    async *watch(opts: WatchOptions) {
      watchCalls.push(opts);
      const next = watches.shift();
      if (!next) {
        stop.abort();
        return;
      }
      if (next instanceof Error) throw next;
      yield* next;
    },
  } as unknown as ResourceClient;
  return { resource, watchCalls, listCalls };
}

function recordingStore(): ReflectorStore & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    replace: (items) => log.push(`replace ${items.map((i) => i.metadata.name).join(',')}`),
    add: (o) => log.push(`add ${o.metadata.name}`),
    update: (o) => log.push(`update ${o.metadata.name}`),
    delete: (o) => log.push(`delete ${o.metadata.name}`),
  };
}

describe('Reflector', () => {
  it('lists in pages, watches with bookmarks from the list, and re-watches from the newest resourceVersion', async () => {
    const stop = new AbortController();
    const { resource, watchCalls, listCalls } = scripted(
      [list('5', obj('a', '3'))],
      [
        [
          { type: 'ADDED', object: obj('b', '6') },
          { type: 'BOOKMARK', object: { metadata: { resourceVersion: '9' } } },
        ],
        [
          { type: 'MODIFIED', object: obj('a', '11') },
          { type: 'DELETED', object: obj('b', '12') },
        ],
      ],
      stop,
    );
    const store = recordingStore();
    const r = new Reflector(resource, store, { pageSize: 100, minWatchTimeoutSeconds: 10 });
    await r.run(stop.signal);
    assert.deepEqual(listCalls, [100]);
    assert.deepEqual(store.log, ['replace a', 'add b', 'update a', 'delete b']);
    assert.deepEqual(
      watchCalls.map((w) => w.resourceVersion),
      ['5', '9', '12'],
      'the bookmark moved the resourceVersion on',
    );
    assert.ok(watchCalls.every((w) => w.allowWatchBookmarks === true && w.timeoutSeconds! >= 10 && w.timeoutSeconds! < 20));
    assert.equal(r.lastSyncResourceVersion, '12');
  });

  it('relists after a 410, whether the watch is refused or says so in an ERROR event', async () => {
    const stop = new AbortController();
    const expired = new ApiError(gone as never);
    const { resource, watchCalls } = scripted(
      [list('5', obj('a', '5')), list('20', obj('a', '15'), obj('c', '18')), list('30')],
      [expired, [{ type: 'ERROR', object: gone }]],
      stop,
    );
    const store = recordingStore();
    await new Reflector(resource, store, { backoff: { initialMs: 1, maxMs: 2 } }).run(stop.signal);
    assert.deepEqual(store.log, ['replace a', 'replace a,c', 'replace ']);
    assert.deepEqual(
      watchCalls.map((w) => w.resourceVersion),
      ['5', '20', '30'],
    );
  });

  it('retries a failing watch from the same resourceVersion, and a failing list, with backoff', async () => {
    const stop = new AbortController();
    const { resource, watchCalls, listCalls } = scripted(
      [new Error('connection refused'), list('7')],
      [new Error('socket hang up'), [{ type: 'ADDED', object: obj('x', '8') }]],
      stop,
    );
    const store = recordingStore();
    const started = Date.now();
    await new Reflector(resource, store, { backoff: { initialMs: 20, maxMs: 40 } }).run(stop.signal);
    assert.deepEqual(listCalls.length, 2);
    assert.deepEqual(
      watchCalls.map((w) => w.resourceVersion),
      ['7', '7', '8'],
      'no relist after a connection error',
    );
    assert.deepEqual(store.log, ['replace ', 'add x']);
    assert.ok(Date.now() - started >= 40, 'it waited between attempts');
  });
});
