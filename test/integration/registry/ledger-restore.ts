/**
 * Deleted objects and Restore (history.orch.io/v1) over real HTTPS on a real store, run once per
 * backend (ledger-restore-etcd.test.ts, ledger-restore-sqlite.test.ts): the DeletedObject listing
 * (who deleted what, when, paged, filtered by RBAC), restoring one object with its uid and
 * ownerReferences, the refusals (404, 409, 403, 422) writing nothing, and a namespace restore.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../../support/api-server.js';
import { newTestClient, type TestClient } from '../../support/http-client.js';
import { createNamespace } from '../../support/namespaces.js';
import { eventually } from '../../support/eventually.js';

const HISTORY = '/apis/history.orch.io/v1';

/** Every page of a DeletedObjectList. */
export async function allDeleted(c: TestClient, path: string, limit = 0): Promise<any[]> {
  const items: any[] = [];
  let token = '';
  for (let pages = 0; ; pages++) {
    assert.ok(pages < 1000, 'the listing ends');
    const q = [limit ? `limit=${limit}` : '', token ? `continue=${encodeURIComponent(token)}` : ''].filter(Boolean).join('&');
    const r = await c.get(`${path}${q ? `?${q}` : ''}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.kind, 'DeletedObjectList');
    assert.equal(r.body.apiVersion, 'history.orch.io/v1');
    if (limit) assert.ok(r.body.items.length <= limit);
    items.push(...r.body.items);
    token = r.body.metadata.continue ?? '';
    if (!token) return items;
  }
}

export function restoreBody(resource: string, name: string, namespace?: string, group = '', uid?: string) {
  return {
    apiVersion: 'history.orch.io/v1',
    kind: 'Restore',
    metadata: { name: `restore-${name}` },
    spec: { group, resource, name, ...(namespace ? { namespace } : {}), ...(uid ? { uid } : {}) },
  };
}

export interface RestoreServers {
  /** A server with --history-retention=24h, RBAC and the tokens viewer-token, editor-token. */
  main(): Promise<TestServer>;
}

export function runRestoreSuite(backend: string, servers: RestoreServers): void {
  describe(`deleted objects and restore (${backend})`, () => {
    let s: TestServer;
    let c: TestClient;
    before(async () => {
      s = await servers.main();
      c = s.client;
    });
    after(async () => {
      await s?.stop();
    });

    it('lists what was deleted in a namespace and cluster-wide, with who and when, paged', async () => {
      await createNamespace(c, 'del');
      for (let i = 0; i < 7; i++) {
        assert.equal(
          (await c.post('/api/v1/namespaces/del/configmaps', { metadata: { name: `cm${i}` }, data: { i: String(i) } })).status,
          201,
        );
      }
      const sec = await c.post('/api/v1/namespaces/del/secrets', { metadata: { name: 'cm0' }, stringData: { p: 'x' } });
      assert.equal(sec.status, 201, sec.text);
      const before = await c.get('/api/v1/namespaces/del/configmaps/cm3');
      for (const n of ['cm1', 'cm3', 'cm5']) assert.equal((await c.delete(`/api/v1/namespaces/del/configmaps/${n}`)).status, 200);
      assert.equal((await c.delete('/api/v1/namespaces/del/secrets/cm0')).status, 200);
      const items = await allDeleted(c, `${HISTORY}/namespaces/del/deletedobjects`);
      const names = items.map((i) => i.metadata.name).sort();
      assert.deepEqual(names, ['configmaps.cm1', 'configmaps.cm3', 'configmaps.cm5', 'secrets.cm0']);
      const cm3 = items.find((i) => i.metadata.name === 'configmaps.cm3');
      assert.equal(cm3.kind, 'DeletedObject');
      assert.equal(cm3.metadata.namespace, 'del');
      assert.deepEqual(cm3.target, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        group: '',
        resource: 'configmaps',
        namespace: 'del',
        name: 'cm3',
        uid: before.body.metadata.uid,
      });
      assert.equal(cm3.deletion.user, 'admin');
      assert.ok(Date.now() - Date.parse(cm3.deletion.time) < 60_000, cm3.deletion.time);
      assert.equal(cm3.deletion.lastResourceVersion, before.body.metadata.resourceVersion);
      assert.ok(Number(cm3.deletion.resourceVersion) > Number(before.body.metadata.resourceVersion));
      // The last live revision is readable through the history subresource at that resourceVersion.
      const old = await c.get(`/api/v1/namespaces/del/configmaps/cm3/history?resourceVersion=${cm3.deletion.lastResourceVersion}`);
      assert.equal(old.status, 200, old.text);
      assert.equal(old.body.data.i, '3');
      // Paged: one item a page gives the same items.
      const paged = await allDeleted(c, `${HISTORY}/namespaces/del/deletedobjects`, 1);
      assert.deepEqual(paged.map((i) => i.metadata.name).sort(), names);
      // Cluster-wide: these and more (none of another namespace's names are lost).
      const all = await allDeleted(c, `${HISTORY}/deletedobjects`);
      for (const n of names)
        assert.ok(
          all.some((i) => i.metadata.name === n && i.metadata.namespace === 'del'),
          n,
        );
      // A re-created name is no longer deleted.
      assert.equal((await c.post('/api/v1/namespaces/del/configmaps', { metadata: { name: 'cm5' } })).status, 201);
      const now = await allDeleted(c, `${HISTORY}/namespaces/del/deletedobjects`);
      assert.ok(!now.some((i) => i.metadata.name === 'configmaps.cm5'));
      // Discovery lists the group's kinds.
      const disc = await c.get(`${HISTORY}`);
      assert.equal(disc.status, 200, disc.text);
      const resources = disc.body.resources.map((r: any) => `${r.name}:${r.verbs.join(',')}`).sort();
      assert.deepEqual(resources, ['deletedobjects:list', 'restores:create']);
    });

    it('restores one object as it was: same uid, labels, ownerReferences; nothing written on refusals', async () => {
      await createNamespace(c, 'res');
      const revision = async () => (await c.get('/api/v1/namespaces/res/configmaps')).body.metadata.resourceVersion;
      const owner = await c.post('/api/v1/namespaces/res/configmaps', { metadata: { name: 'owner' } });
      assert.equal(owner.status, 201, owner.text);
      const ownerRef = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.body.metadata.uid };
      const created = await c.post('/api/v1/namespaces/res/configmaps', {
        metadata: { name: 'x', labels: { app: 'web' }, annotations: { note: 'kept' }, ownerReferences: [ownerRef] },
        data: { k: 'v1' },
      });
      assert.equal(created.status, 201, created.text);
      const updated = await c.patch('/api/v1/namespaces/res/configmaps/x', { data: { k: 'v2' } }, 'application/merge-patch+json');
      assert.equal(updated.status, 200, updated.text);
      assert.equal((await c.delete('/api/v1/namespaces/res/configmaps/x')).status, 200);

      const editor = newTestClient({ url: s.url, ca: s.ca, token: 'editor-token' });
      const viewer = newTestClient({ url: s.url, ca: s.ca, token: 'viewer-token' });
      try {
        for (const [i, [role, user]] of [
          ['system:aggregate-to-view', 'viewer'],
          ['system:aggregate-to-view', 'editor'],
          ['system:aggregate-to-edit', 'editor'],
        ].entries()) {
          const r = await c.post('/apis/rbac.authorization.orch.io/v1/namespaces/res/rolebindings', {
            metadata: { name: `b${i}` },
            roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: role },
            subjects: [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.orch.io' }],
          });
          assert.equal(r.status, 201, r.text);
        }
        await eventually('the bindings apply', async () => (await viewer.get(`${HISTORY}/namespaces/res/deletedobjects`)).status === 200);
        // Refusals first, each writing nothing.
        const rvBefore = await revision();
        const never = await c.post(`${HISTORY}/restores`, restoreBody('configmaps', 'never', 'res'));
        assert.equal(never.status, 404, never.text);
        assert.equal(never.body.reason, 'NotFound');
        const wrongUid = await c.post(`${HISTORY}/restores`, restoreBody('configmaps', 'x', 'res', '', 'not-its-uid'));
        assert.equal(wrongUid.status, 404, wrongUid.text);
        const noKind = await c.post(`${HISTORY}/restores`, restoreBody('nosuchthings', 'x', 'res'));
        assert.equal(noKind.status, 404, noKind.text);
        const noName = await c.post(`${HISTORY}/restores`, {
          apiVersion: 'history.orch.io/v1',
          kind: 'Restore',
          metadata: {},
          spec: { resource: 'configmaps' },
        });
        assert.equal(noName.status, 422, noName.text);
        // The viewer lists the deleted ConfigMap but may not restore it: 403 (it may not create configmaps).
        const seen = await viewer.get(`${HISTORY}/namespaces/res/deletedobjects`);
        assert.ok(
          seen.body.items.some((i: any) => i.metadata.name === 'configmaps.x'),
          seen.text,
        );
        const denied = await viewer.post(`${HISTORY}/restores`, restoreBody('configmaps', 'x', 'res'));
        assert.equal(denied.status, 403, denied.text);
        assert.equal(denied.body.reason, 'Forbidden');
        assert.match(denied.body.message, /cannot create resource "configmaps"/);
        assert.equal(rvBefore, await revision(), 'no refusal wrote anything');
        assert.equal((await c.get('/api/v1/namespaces/res/configmaps/x')).status, 404);

        const restored = await editor.post(`${HISTORY}/restores`, restoreBody('configmaps', 'x', 'res'));
        assert.equal(restored.status, 201, restored.text);
        assert.equal(restored.body.kind, 'Restore');
        assert.equal(restored.body.status.restored.length, 1);
        assert.equal(restored.body.status.restored[0].uid, created.body.metadata.uid);
      } finally {
        editor.close();
        viewer.close();
      }
      const back = await c.get('/api/v1/namespaces/res/configmaps/x');
      assert.equal(back.status, 200, back.text);
      assert.equal(back.body.metadata.uid, created.body.metadata.uid);
      assert.equal(back.body.metadata.creationTimestamp, created.body.metadata.creationTimestamp);
      assert.deepEqual(back.body.metadata.labels, { app: 'web' });
      assert.deepEqual(back.body.metadata.annotations, { note: 'kept' });
      assert.deepEqual(back.body.metadata.ownerReferences, [ownerRef]);
      assert.deepEqual(back.body.data, { k: 'v2' }, 'as it was just before the deletion');
      assert.equal(back.body.metadata.deletionTimestamp, undefined);
      // Taken again: 409, nothing written.
      const rvNow = await revision();
      const again = await c.post(`${HISTORY}/restores`, restoreBody('configmaps', 'x', 'res'));
      assert.equal(again.status, 409, again.text);
      assert.equal(again.body.reason, 'AlreadyExists');
      assert.equal(await revision(), rvNow);
      // The history shows the restore as a create by its user.
      const h = await c.get('/api/v1/namespaces/res/configmaps/x/history');
      assert.equal(h.body.items[0].operation, 'create');
      assert.equal(h.body.items[0].user, 'editor');
      assert.equal(h.body.items[1].operation, 'delete');
      // A cluster-scoped kind: a ClusterRole.
      const cr = await c.post('/apis/rbac.authorization.orch.io/v1/clusterroles', { metadata: { name: 'restore-me' }, rules: [] });
      assert.equal(cr.status, 201, cr.text);
      assert.equal((await c.delete('/apis/rbac.authorization.orch.io/v1/clusterroles/restore-me')).status, 200);
      const all = await allDeleted(c, `${HISTORY}/deletedobjects`);
      const item = all.find((i) => i.metadata.name === 'clusterroles.rbac.authorization.orch.io.restore-me');
      assert.ok(item, JSON.stringify(all.map((i) => i.metadata.name)));
      assert.equal(item.metadata.namespace, undefined);
      const editor2 = newTestClient({ url: s.url, ca: s.ca, token: 'editor-token' });
      const rvCr = await revision();
      const crDenied = await editor2.post(
        `${HISTORY}/restores`,
        restoreBody('clusterroles', 'restore-me', undefined, 'rbac.authorization.orch.io'),
      );
      editor2.close();
      assert.equal(crDenied.status, 403, crDenied.text);
      assert.equal(await revision(), rvCr);
      const crBack = await c.post(
        `${HISTORY}/restores`,
        restoreBody('clusterroles', 'restore-me', undefined, 'rbac.authorization.orch.io'),
      );
      assert.equal(crBack.status, 201, crBack.text);
      assert.equal((await c.get('/apis/rbac.authorization.orch.io/v1/clusterroles/restore-me')).body.metadata.uid, cr.body.metadata.uid);
    });
  });
}
