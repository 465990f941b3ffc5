/**
 * The watch cache against a real store, run once per backend (cacher-sqlite.test.ts,
 * cacher-etcd.test.ts): what it serves must be exactly what the store serves.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Storage, StorageWatcher, WatchHandlers } from '../../../apiserver/storage/interfaces.js';
import { StorageError } from '../../../apiserver/storage/errors.js';
import { newApiDomain } from '../../../apiserver/api/domain.js';
import { newResourceTable } from '../../../apiserver/api/resource-table.js';
import type { ApiObject, WatchEvent } from '../../../apiserver/api/object.js';
import * as status from '../../../apiserver/api/status.js';
import { newAdmissionChain } from '../../../apiserver/admission/chain.js';
import { GenericStore } from '../../../apiserver/registry/generic/store.js';
import type { ListOptions } from '../../../apiserver/registry/generic/list-options.js';
import type { RequestContext } from '../../../apiserver/registry/generic/request-context.js';
import { Cacher, type CacherConfig } from '../../../apiserver/storage/cacher/cacher.js';
import { PROGRESS_MARKER } from '../../../apiserver/storage/cacher/progress-marker.js';

const domain = newApiDomain();
const [def] = newResourceTable(domain, [
  {
    kubernetesGroup: 'example.k8s.io',
    version: 'v1',
    kind: 'Widget',
    plural: 'widgets',
    singular: 'widget',
    namespaced: true,
    schema: 'core.v1.ConfigMap',
    nameRule: 'dns-subdomain',
  },
]).all();
const ctx = (namespace = 'ns1'): RequestContext => ({ namespace, user: { name: 'test', groups: [] }, dryRun: false, now: new Date() });
const widget = (name: string, labels: Record<string, string> = {}) => ({
  metadata: { name, labels },
  data: { v: randomBytes(4).toString('hex') },
});

/** A storage that counts reads and lets a test break the cache's storage watch. */
function instrumented(storage: Storage) {
  const counts = { list: 0, get: 0 };
  const watches: WatchHandlers[] = [];
  const wrapped: Storage = Object.create(storage) as Storage;
  wrapped.list = (prefix, options) => {
    counts.list++;
    return storage.list(prefix, options);
  };
  wrapped.get = (key) => {
    counts.get++;
    return storage.get(key);
  };
  wrapped.watch = (prefix, options, handlers): StorageWatcher => {
    watches.push(handlers);
    return storage.watch(prefix, options, handlers);
  };
  return { storage: wrapped, counts, watches };
}

/** Collects a watch's events; settled() waits until nothing new arrived for a moment. */
function collector() {
  const events: WatchEvent[] = [];
  let closed = false;
  return {
    events,
    get closed() {
      return closed;
    },
    sink: { send: (e: WatchEvent) => void events.push(e), close: () => (closed = true) },
    /** Waits at least minMs (a store watch takes a moment to open), then until 40 ms pass quietly. */
    async settled(minMs = 0) {
      await new Promise((r) => setTimeout(r, minMs));
      for (let seen = -1, i = 0; seen !== events.length && i < 100; i++) {
        seen = events.length;
        await new Promise((r) => setTimeout(r, 40));
      }
      return events;
    },
  };
}

/** Resolves once cond() holds; fails after 5 s. */
async function until(cond: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5000; !cond(); await new Promise((r) => setTimeout(r, 5))) {
    if (Date.now() > deadline) assert.fail('condition not met within 5 s');
  }
}

/** Everything but the object's identity of events, comparable across sources. */
const summary = (events: WatchEvent[]) =>
  events.map(
    (e) =>
      `${e.type} ${(e.object as ApiObject).metadata.name} ${(e.object as ApiObject).metadata.resourceVersion} ${JSON.stringify(e.object)}`,
  );

export function runCacherConformance(backend: string, newStorage: () => Promise<{ storage: Storage; close(): Promise<void> }>): void {
  describe(`watch cache (${backend})`, () => {
    let opened: { storage: Storage; close(): Promise<void> };
    let probe: ReturnType<typeof instrumented>;
    let store: GenericStore;
    let cacher: Cacher;
    // The store reading through each cache (one per cache: a cache is keyed by the store it serves).
    const cachedStores = new Map<Cacher, GenericStore>();
    const through = (c: Cacher) => {
      let s = cachedStores.get(c);
      if (!s) {
        s = new GenericStore({
          def,
          storage: probe.storage,
          storagePrefix: prefix,
          domain,
          admission: newAdmissionChain([]),
          cacher: c,
        });
        cachedStores.set(c, s);
      }
      return s;
    };
    const prefix = `/registry-${randomBytes(4).toString('hex')}`;
    const newCacher = (extra: Partial<CacherConfig> = {}) => new Cacher({ storage: probe.storage, prefix, windowSize: 1000, ...extra });

    before(async () => {
      opened = await newStorage();
      probe = instrumented(opened.storage);
      store = new GenericStore({ def, storage: probe.storage, storagePrefix: prefix, domain, admission: newAdmissionChain([]) });
      cacher = newCacher();
    });
    after(async () => {
      await cacher.close();
      await opened.close();
    });

    it('resumes a watch from any revision in its window with exactly the events a storage watch gives', async () => {
      const startRev = await opened.storage.currentRevision();
      // Some history before the resource has a cache: the window still covers it.
      await store.create(ctx(), widget('a', { app: 'x' }));
      await store.create(ctx('ns2'), widget('b', { app: 'y' }));
      const first = await through(cacher).list(ctx(), { resourceVersion: '0' });
      assert.equal(first.items.length, 1);
      await store.update(ctx(), 'a', (old) => ({ ...old!, metadata: { ...old!.metadata, labels: { app: 'y' } } }));
      await store.create(ctx(), widget('c', { app: 'x' }));
      await store.update(ctx('ns2'), 'b', (old) => ({ ...old!, metadata: { ...old!.metadata, labels: { app: 'x' } } }));
      await store.update(ctx(), 'c', (old) => ({ ...old!, data: { v: 'changed' } }));
      await store.delete(ctx(), 'a');
      await store.delete(ctx('ns2'), 'b');
      await store.create(ctx(), widget('a', { app: 'x' }));
      const endRev = await opened.storage.currentRevision();
      const selections: [string, ListOptions][] = [
        ['all namespaces', {}],
        ['ns1', {}],
        ['app=x', { labelSelector: 'app=x' }],
        ['name=a', { fieldSelector: 'metadata.name=a' }],
      ];
      // From 1: resourceVersion "0" means "any state", which the cache may serve slightly stale.
      for (let rv = Math.max(startRev, 1); rv <= endRev; rv++) {
        const runs = await Promise.all(
          selections.map(async ([name, opts]) => {
            const c = ctx(name === 'all namespaces' ? '' : 'ns1');
            const cached = collector();
            const stored = collector();
            const w1 = await through(cacher).watch(c, { ...opts, resourceVersion: String(rv) }, cached.sink);
            const w2 = await store.watch(c, { ...opts, resourceVersion: String(rv) }, stored.sink);
            const [got, want] = await Promise.all([cached.settled(), stored.settled(200)]);
            w1.stop();
            w2.stop();
            return { name, got: summary(got), want: summary(want) };
          }),
        );
        for (const { name, got, want } of runs) assert.deepEqual(got, want, `${name} from ${rv}`);
      }
    });

    it('answers 410 Expired for a revision older than its window', async () => {
      const small = newCacher({ windowSize: 3 });
      try {
        const from = await opened.storage.currentRevision();
        await through(small).list(ctx(), { resourceVersion: '0' });
        const created: ApiObject[] = [];
        for (let i = 0; i < 5; i++) created.push(await store.create(ctx(), widget(`old-${i}`)));
        await through(small).list(ctx(), {}); // a consistent read: the cache has every change now
        const err = await through(small)
          .watch(ctx(), { resourceVersion: String(from) }, collector().sink)
          .then(
            () => assert.fail('expected 410'),
            (e: unknown) => e,
          );
        assert.ok(status.isApiError(err, 'Expired'), String(err));
        assert.equal(err.code, 410);
        // The window holds the last 3 events, so the oldest revision to resume from is the one before them.
        // (Counted from the writes, not the store's revision: etcd may also hold progress-marker writes.)
        const oldest = Number(created[1].metadata.resourceVersion);
        assert.equal(err.message, `too old resource version: ${from} (${oldest})`);
        const ok = collector();
        (await through(small).watch(ctx(), { resourceVersion: String(oldest) }, ok.sink)).stop();
        assert.equal(ok.events.length, 3);
      } finally {
        await small.close();
      }
    });

    it('serves lists from memory, page by page, as the store would', async () => {
      for (let i = 0; i < 7; i++) await store.create(ctx('pages'), widget(`p-${i}`, { odd: String(i % 2) }));
      await through(cacher).list(ctx('pages'), { resourceVersion: '0' });
      for (const opts of [{}, { limit: 3 }, { limit: 3, labelSelector: 'odd=1' }, { resourceVersion: '0', limit: 4 }] as ListOptions[]) {
        const reads = probe.counts.list;
        const cached = await through(cacher).list(ctx('pages'), opts);
        assert.equal(probe.counts.list, reads, 'no store list for the first page');
        const stored = await store.list(ctx('pages'), {
          ...opts,
          resourceVersion: cached.metadata.resourceVersion,
          resourceVersionMatch: 'Exact',
        });
        assert.deepEqual(cached.items, stored.items, JSON.stringify(opts));
        assert.equal(cached.metadata.remainingItemCount, stored.metadata.remainingItemCount);
        // The continue token reads the rest at the cache's revision, in the store.
        let token = cached.metadata.continue;
        const names = cached.items.map((o) => o.metadata.name);
        while (token) {
          const next = await through(cacher).list(ctx('pages'), { ...opts, resourceVersion: undefined, continue: token });
          assert.equal(next.metadata.resourceVersion, cached.metadata.resourceVersion);
          names.push(...next.items.map((o) => o.metadata.name));
          token = next.metadata.continue;
        }
        const all = await store.list(ctx('pages'), { labelSelector: opts.labelSelector });
        assert.deepEqual(
          names,
          all.items.map((o) => o.metadata.name),
        );
      }
    });

    it('sees every write acknowledged before a consistent read', async () => {
      await through(cacher).list(ctx('fresh'), { resourceVersion: '0' });
      const reads = probe.counts.list;
      for (let i = 0; i < 20; i++) {
        const created = await store.create(ctx('fresh'), widget(`f-${i}`));
        const list = await through(cacher).list(ctx('fresh'), {});
        assert.equal(list.items.length, i + 1);
        assert.ok(Number(list.metadata.resourceVersion) >= Number(created.metadata.resourceVersion));
        const cache = await cacher.readable(through(cacher), 'latest');
        assert.deepEqual(cache!.get(store.keys.objectKey('fresh', `f-${i}`)), created);
      }
      assert.equal(probe.counts.list, reads, 'all served from memory');
    });

    it('writes the progress marker when the store moved outside the prefix, instead of waiting', async () => {
      const quick = newCacher({ freshnessTimeoutMs: 5000 });
      try {
        await through(quick).list(ctx(), { resourceVersion: '0' });
        const marker = `${prefix}/${PROGRESS_MARKER}`;
        const before = (await opened.storage.get(marker))?.modRevision ?? 0;
        await opened.storage.create(`/elsewhere-${randomBytes(4).toString('hex')}`, Buffer.from('x'));
        const outside = await opened.storage.currentRevision();
        const started = Date.now();
        const reads = probe.counts.list;
        const list = await through(quick).list(ctx(), {});
        assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
        assert.equal(probe.counts.list, reads, 'served from memory');
        assert.ok(Number(list.metadata.resourceVersion) > outside);
        assert.ok((await opened.storage.get(marker))!.modRevision > before);
      } finally {
        await quick.close();
      }
    });

    it('closes its watchers and rebuilds when its storage watch lost history', async () => {
      const fragile = newCacher();
      try {
        await through(fragile).list(ctx(), { resourceVersion: '0' });
        const watched = collector();
        const w = await through(fragile).watch(ctx(), { resourceVersion: '0' }, watched.sink);
        const feed = probe.watches.at(-1)!;
        feed.onError(new StorageError('Compacted', prefix, { revision: 1 }));
        await until(() => watched.closed);
        w.stop();
        const created = await store.create(ctx(), widget('after-reset'));
        const list = await through(fragile).list(ctx(), {});
        assert.ok(list.items.some((o) => o.metadata.uid === created.metadata.uid));
      } finally {
        await fragile.close();
      }
    });

    it('closes a watcher that cannot keep up and keeps serving the others', async () => {
      await through(cacher).list(ctx('slow'), { resourceVersion: '0' });
      const slow = {
        events: 0,
        closed: false,
        send: () => {
          slow.events++;
          return false;
        },
        close: () => (slow.closed = true),
        drained: () => new Promise<void>(() => {}),
      };
      const fast = collector();
      const limited = newCacher({ maxPendingEvents: 5 });
      try {
        const rv = (await through(limited).list(ctx('slow'), { resourceVersion: '0' })).metadata.resourceVersion;
        await through(limited).watch(ctx('slow'), { resourceVersion: rv }, slow);
        await through(limited).watch(ctx('slow'), { resourceVersion: rv }, fast.sink);
        for (let i = 0; i < 8; i++) await store.create(ctx('slow'), widget(`s-${i}`));
        await until(() => fast.events.length === 8);
        assert.equal(slow.events, 1, 'nothing more is sent to a client that is behind');
        assert.equal(slow.closed, true);
        assert.equal(fast.events.length, 8);
        assert.equal(limited.watcherCount, 1);
      } finally {
        await limited.close();
      }
    });
    it("continues paged lists from memory at the token's revision, page for page as the store, while writes go on", async () => {
      // Snapshots as often as writes come (the default spaces them, and this test writes between every page).
      const paging = newCacher({ snapshotIntervalMs: 0 });
      try {
        for (let i = 0; i < 12; i++) await store.create(ctx('traverse'), widget(`t-${String(i).padStart(2, '0')}`, { odd: String(i % 2) }));
        await through(paging).list(ctx('traverse'), { resourceVersion: '0' });
        let written = 0;
        for (const opts of [{ limit: 3 }, { limit: 2, labelSelector: 'odd=1' }, { limit: 5, resourceVersion: '0' }] as ListOptions[]) {
          const first = await through(paging).list(ctx('traverse'), opts);
          let token = first.metadata.continue;
          assert.ok(token, JSON.stringify(opts));
          const names = first.items.map((o) => o.metadata.name);
          while (token) {
            // A create, an update and a delete between pages: the next page still shows the first page's revision.
            written++;
            await store.create(ctx('traverse'), widget(`t-new-${written}`, { odd: '1' }));
            await store.update(ctx('traverse'), 't-01', (old) => ({ ...old!, data: { v: `changed-${written}` } }));
            if (written < 4) await store.delete(ctx('traverse'), `t-${String(12 - written).padStart(2, '0')}`);
            await through(paging).list(ctx('traverse'), {}); // the cache has the writes
            const reads = probe.counts.list;
            const cached = await through(paging).list(ctx('traverse'), { ...opts, resourceVersion: undefined, continue: token });
            assert.equal(probe.counts.list, reads, `no store list for a continued page of ${JSON.stringify(opts)}`);
            const stored = await store.list(ctx('traverse'), { ...opts, resourceVersion: undefined, continue: token });
            assert.deepEqual(cached, stored, JSON.stringify(opts));
            names.push(...cached.items.map((o) => o.metadata.name));
            token = cached.metadata.continue;
          }
          const then = await store.list(ctx('traverse'), {
            labelSelector: opts.labelSelector,
            resourceVersion: first.metadata.resourceVersion,
            resourceVersionMatch: 'Exact',
          });
          assert.deepEqual(
            names,
            then.items.map((o) => o.metadata.name),
          );
        }
        const cache = await paging.readable(through(paging), 'any');
        assert.ok(cache && cache.snapshotCount > 0, 'pages read snapshots of earlier revisions');
      } finally {
        await paging.close();
      }
    });

    it('continues a token older than its window from the store, and answers 410 once the store compacted it', async () => {
      const small = newCacher({ windowSize: 3 });
      try {
        for (let i = 0; i < 5; i++) await store.create(ctx('aged'), widget(`a-${i}`));
        const first = await through(small).list(ctx('aged'), { limit: 2 });
        const token = first.metadata.continue!;
        for (let i = 0; i < 4; i++) await store.update(ctx('aged'), 'a-4', (old) => ({ ...old!, data: { v: `v${i}` } }));
        await through(small).list(ctx('aged'), {});
        const reads = probe.counts.list;
        const next = await through(small).list(ctx('aged'), { limit: 2, continue: token });
        assert.ok(probe.counts.list > reads, 'the store answered');
        assert.deepEqual(next, await store.list(ctx('aged'), { limit: 2, continue: token }));
        assert.equal(next.metadata.resourceVersion, first.metadata.resourceVersion);
        assert.deepEqual(
          next.items.map((o) => o.metadata.name),
          ['a-2', 'a-3'],
        );
        await opened.storage.compact(await opened.storage.currentRevision());
        const err = await through(small)
          .list(ctx('aged'), { limit: 2, continue: token })
          .then(
            () => assert.fail('expected 410'),
            (e: unknown) => e,
          );
        assert.ok(status.isApiError(err, 'Expired'), String(err));
        assert.equal(err.code, 410);
        assert.ok(err.status.metadata.continue, 'an inconsistent continue token comes with the 410');
      } finally {
        await small.close();
      }
    });
  });
}
