/**
 * The generic store against a real SQLite file, for behaviour the REST suite cannot reach with the
 * served kinds' settings: generation tracking and watch bookmarks on a short interval.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSqliteStorage } from '../../../apiserver/storage/sqlite/index.js';
import type { Storage } from '../../../apiserver/storage/interfaces.js';
import { newApiDomain } from '../../../apiserver/api/domain.js';
import { newResourceTable } from '../../../apiserver/api/resource-table.js';
import type { ApiObject, WatchEvent } from '../../../apiserver/api/object.js';
import { newAdmissionChain } from '../../../apiserver/admission/chain.js';
import { GenericStore } from '../../../apiserver/registry/generic/store.js';
import * as status from '../../../apiserver/api/status.js';
import type { RequestContext } from '../../../apiserver/registry/generic/request-context.js';
import type { HookTransaction } from '../../../apiserver/registry/generic/store-hooks.js';

const domain = newApiDomain();
const table = newResourceTable(domain, [
  {
    kubernetesGroup: 'example.k8s.io',
    version: 'v1',
    kind: 'Widget',
    plural: 'widgets',
    singular: 'widget',
    namespaced: true,
    schema: 'core.v1.ConfigMap',
    nameRule: 'dns-subdomain',
    trackGeneration: true,
  },
]);
const def = table.all()[0];
const ctx = (): RequestContext => ({ namespace: 'ns', user: { name: 'test', groups: [] }, dryRun: false, now: new Date() });

describe('generic store', () => {
  let dir: string;
  let storage: Storage;
  let store: GenericStore;
  /** The same resource, read through a store that sends BOOKMARKs at the given interval. */
  const withBookmarks = (bookmarkIntervalMs: number) =>
    new GenericStore({ def, storage, storagePrefix: '/registry', domain, admission: newAdmissionChain([]), bookmarkIntervalMs });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-store-'));
    storage = newSqliteStorage({ path: join(dir, 'state.db') });
    store = new GenericStore({ def, storage, storagePrefix: '/registry', domain, admission: newAdmissionChain([]) });
  });
  after(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the declared group under the domain', () => {
    assert.equal(def.group, 'example.orch.io');
    assert.equal(def.apiVersion, 'example.orch.io/v1');
  });

  it('sets generation 1 on create and bumps it only when something outside metadata and status changes', async () => {
    const created = await store.create(ctx(), { metadata: { name: 'w' }, data: { a: '1' } });
    assert.equal(created.metadata.generation, 1);
    const labelled = (await store.update(ctx(), 'w', (old) => ({ ...old!, metadata: { ...old!.metadata, labels: { x: 'y' } } }))).object;
    assert.equal(labelled.metadata.generation, 1);
    const changed = (await store.update(ctx(), 'w', (old) => ({ ...old!, data: { a: '2' } }))).object;
    assert.equal(changed.metadata.generation, 2);
    const ignored = (await store.update(ctx(), 'w', (old) => ({ ...old!, metadata: { ...old!.metadata, generation: 99 } }))).object;
    assert.equal(ignored.metadata.generation, 2, 'generation is server-owned');
  });

  it('bumps generation when deletion starts on an object with finalizers', async () => {
    await store.create(ctx(), { metadata: { name: 'f', finalizers: ['example.com/x'] } });
    const { object, deleted } = await store.delete(ctx(), 'f');
    assert.equal(deleted, false);
    assert.equal(object.metadata.generation, 2);
    assert.ok(object.metadata.deletionTimestamp);
  });

  it('sends BOOKMARK events with the latest revision, also when nothing selected changed', async () => {
    const events: WatchEvent[] = [];
    const start = await storage.currentRevision();
    const w = await withBookmarks(50).watch(
      ctx(),
      { resourceVersion: String(start), allowWatchBookmarks: true, labelSelector: 'app=none' },
      { send: (e) => events.push(e), close: () => {} },
    );
    await store.create(ctx(), { metadata: { name: 'unselected' } });
    const after = await storage.currentRevision();
    await new Promise((r) => setTimeout(r, 200));
    w.stop();
    const bookmarks = events.filter((e) => e.type === 'BOOKMARK');
    assert.equal(events.length, bookmarks.length, 'the unselected object is not sent');
    assert.ok(bookmarks.length >= 2);
    const last = bookmarks.at(-1)!.object as ApiObject;
    assert.deepEqual(last, { kind: 'Widget', apiVersion: 'example.orch.io/v1', metadata: { resourceVersion: String(after) } });
  });

  it('sends no bookmarks unless asked', async () => {
    const events: WatchEvent[] = [];
    const w = await withBookmarks(20).watch(
      ctx(),
      { resourceVersion: String(await storage.currentRevision()) },
      { send: (e) => events.push(e), close: () => {} },
    );
    await new Promise((r) => setTimeout(r, 100));
    w.stop();
    assert.deepEqual(events, []);
  });

  it('reverts admission side effects when a later step or the write fails, and keeps them when it is stored', async () => {
    const charged: string[] = [];
    let refuse = false;
    const charging = newAdmissionChain([
      {
        name: 'Charge',
        handles: () => true,
        async validate(a) {
          const what = `${a.operation} ${a.name}`;
          charged.push(what);
          a.rollback.add(async () => {
            charged.splice(charged.indexOf(what), 1);
          });
        },
      },
      {
        name: 'Later',
        handles: () => true,
        async validate(a) {
          if (refuse) throw status.forbidden({ group: '', resource: 'widgets' }, a.name, 'refused later');
        },
      },
    ]);
    const charged$ = new GenericStore({ def, storage, storagePrefix: '/rollback', domain, admission: charging });
    await charged$.create(ctx(), { metadata: { name: 'r' } });
    assert.deepEqual(charged, ['CREATE r']);
    // The write fails (AlreadyExists): its charge is undone.
    await assert.rejects(charged$.create(ctx(), { metadata: { name: 'r' } }), /already exists/);
    assert.deepEqual(charged, ['CREATE r']);
    // A later plugin refuses: undone too.
    refuse = true;
    await assert.rejects(
      charged$.update(ctx(), 'r', (old) => ({ ...old!, data: { b: '2' } })),
      /refused later/,
    );
    assert.deepEqual(charged, ['CREATE r']);
    // A dry run charges nothing that stays.
    refuse = false;
    await charged$.create({ ...ctx(), dryRun: true }, { metadata: { name: 'dry' } });
    assert.deepEqual(charged, ['CREATE r']);
    await charged$.update(ctx(), 'r', (old) => ({ ...old!, data: { b: '2' } }));
    assert.deepEqual(charged, ['CREATE r', 'UPDATE r']);
  });

  it('one write transaction: committed once the write is stored; a retried attempt, a dry run or a failure is undone', async () => {
    const log: string[] = [];
    let next = 0;
    const hookTxn = async (): Promise<HookTransaction> => {
      const id = ++next;
      return {
        commit: async () => {
          log.push(`hook ${id} commit`);
        },
        revert: async () => {
          log.push(`hook ${id} revert`);
        },
      };
    };
    const admission = newAdmissionChain([
      {
        name: 'Record',
        handles: () => true,
        async validate(a) {
          const what = `${a.operation}${a.dryRun ? ' dry' : ''}`;
          a.rollback.add(async () => {
            log.push(`${what} undone`);
          });
          a.rollback.onStored(async () => {
            log.push(`${what} stored`);
          });
        },
      },
    ]);
    const hooks = { beforeCreate: hookTxn, beforeUpdate: hookTxn };
    const txnStore = new GenericStore({ def, storage, storagePrefix: '/txn', domain, admission, hooks });
    const dry = { ...ctx(), dryRun: true };

    await txnStore.create(ctx(), { metadata: { name: 't' }, data: { a: '1' } });
    assert.deepEqual(log.splice(0), ['hook 1 commit', 'CREATE stored']);

    await txnStore.create(dry, { metadata: { name: 'dry' } });
    await txnStore.update(dry, 't', (old) => ({ ...old!, data: { a: 'dry' } }));
    await txnStore.delete(dry, 't');
    assert.deepEqual(log.splice(0), ['hook 2 revert', 'CREATE dry undone', 'hook 3 revert', 'UPDATE dry undone', 'DELETE dry undone']);
    await assert.rejects(txnStore.get(ctx(), 'dry'), /not found/);
    assert.deepEqual((await txnStore.get(ctx(), 't')).data, { a: '1' });

    await assert.rejects(txnStore.create(ctx(), { metadata: { name: 't' } }), /already exists/);
    assert.deepEqual(log.splice(0), ['hook 4 revert', 'CREATE undone']);

    // A write lands between the first attempt's read and its compare-and-swap: the attempt is undone, the next one stored.
    let raced = false;
    await txnStore.update(ctx(), 't', async (old) => {
      if (!raced) {
        raced = true;
        await txnStore.update(ctx(), 't', (o) => ({ ...o!, data: { a: 'other' } }));
      }
      return { ...old!, data: { ...(old!.data as object), b: '2' } };
    });
    assert.deepEqual(log.splice(0), ['hook 5 commit', 'UPDATE stored', 'hook 6 revert', 'UPDATE undone', 'hook 7 commit', 'UPDATE stored']);
    assert.deepEqual((await txnStore.get(ctx(), 't')).data, { a: 'other', b: '2' });
  });
});
