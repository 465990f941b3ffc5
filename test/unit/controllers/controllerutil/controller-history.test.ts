import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ControllerRevision } from '../../../../apiserver/api/generated/types.js';
import { alreadyExists } from '../../../../apiserver/api/status.js';
import { labelSelectorFromObject } from '../../../../apiserver/runtime/selectors/label-selector.js';
import { CONTROLLERREVISIONS } from '../../../../controllers/controllerutil/resources.js';
import {
  ControllerHistory,
  type HistoryOwner,
  RevisionCollisionError,
  revisionData,
} from '../../../../controllers/controllerutil/controller-history.js';
import { computeHash } from '../../../../controllers/controllerutil/template-hash.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const STATEFULSETS = { group: 'apps', version: 'v1', resource: 'statefulsets' };

/** A StatefulSet, handed to the history as the owner it reads (its other fields ride along). */
function set(image: string): HistoryOwner {
  const sts = {
    metadata: { name: 'db', namespace: 'ns', uid: 'sts-uid', annotations: { note: 'x' } },
    spec: {
      selector: { matchLabels: { app: 'db' } },
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image }] } },
    },
  };
  return sts;
}

function setup() {
  const ctx = newFakeContext();
  const history = new ControllerHistory(ctx.client, ctx.informers.forResource(CONTROLLERREVISIONS), {
    resource: STATEFULSETS,
    kind: 'StatefulSet',
    hashLabel: 'controller.orch.io/hash',
    hash: (_o, data, collisionCount) => computeHash(data, collisionCount ?? 0),
  });
  return { ctx, history };
}

const owned = (rev: ControllerRevision, uid = 'rev-uid'): ControllerRevision => ({
  ...rev,
  metadata: { ...rev.metadata, uid, resourceVersion: '3' },
});

describe('ControllerRevision history', () => {
  it("a revision's data is the patch that replaces the template; it carries the template's labels and the owner's annotations", () => {
    const { history } = setup();
    const rev = history.newRevision(set('postgres:15'), 4) as any;
    assert.deepEqual(rev.data, {
      spec: {
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'postgres:15' }] }, $patch: 'replace' },
      },
    });
    assert.equal(rev.revision, 4);
    assert.match(rev.metadata.name, /^db-[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.deepEqual(rev.metadata.labels, { app: 'db', 'controller.orch.io/hash': rev.metadata.name.slice(3) });
    assert.deepEqual(rev.metadata.annotations, { note: 'x' });
    assert.deepEqual(rev.metadata.ownerReferences, [
      { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'sts-uid', controller: true, blockOwnerDeletion: true },
    ]);
    const collided = { ...set('postgres:15'), status: { collisionCount: 1 } };
    assert.notEqual(history.newRevision(collided, 4).metadata.name, rev.metadata.name, 'the collision count changes the name');
    assert.deepEqual(revisionData(set('a')), history.newRevision(set('a'), 1).data);
  });

  it('creates revision 1 for a new owner, then reuses it while the template is unchanged', async () => {
    const { ctx, history } = setup();
    const first = await history.sync(set('postgres:15'), []);
    const [create] = ctx.fake.made('POST', '/apis/apps/v1/namespaces/ns/controllerrevisions');
    assert.equal(create.body.revision, 1);
    assert.equal(first.update.metadata.name, create.body.metadata.name);
    const again = await history.sync(set('postgres:15'), [owned(first.update)]);
    assert.equal(again.update.metadata.name, first.update.metadata.name);
    assert.equal(ctx.fake.requests.length, 1, 'nothing written for an unchanged template');
  });

  it('a changed template is the next revision; going back bumps the older equal revision instead of creating one', async () => {
    const { ctx, history } = setup();
    const v1 = owned(history.newRevision(set('a'), 1), 'u1');
    const v2 = owned(history.newRevision(set('b'), 2), 'u2');
    const next = await history.sync(set('c'), [v1, v2]);
    assert.equal((next.update as any).revision, 3);
    assert.equal(next.revisions.length, 3);
    const back = await history.sync(set('a'), [v1, v2]);
    const [bump] = ctx.fake.made('PUT', `/controllerrevisions/${v1.metadata.name}`);
    assert.equal(bump.body.revision, 3, 'rollback: the old revision becomes the newest');
    assert.equal(back.update.metadata.name, v1.metadata.name);
    assert.deepEqual(
      back.revisions.map((r) => r.metadata.name),
      [v2.metadata.name, v1.metadata.name],
    );
  });

  it('an existing revision of the same name and data is reused; other data is a collision', async () => {
    const { ctx, history } = setup();
    const wanted = history.newRevision(set('a'), 1);
    let existing: ControllerRevision = owned(wanted);
    ctx.fake.on((req) => {
      if (req.method === 'POST') throw alreadyExists({ group: 'apps', resource: 'controllerrevisions' }, 'db');
      if (req.method === 'GET') return req.path.includes('/controllerrevisions/') ? existing : set('a');
      return undefined;
    });
    assert.equal((await history.sync(set('a'), [])).update.metadata.uid, 'rev-uid');
    existing = { ...existing, data: { other: true } };
    await assert.rejects(history.sync(set('a'), []), RevisionCollisionError);
    const [bump] = ctx.fake.made('PUT', '/statefulsets/db/status');
    assert.equal(bump.body.status.collisionCount, 1, 'the next name will differ');
  });

  it('keeps revisionHistoryLimit revisions besides the live ones, deleting the oldest', async () => {
    const { ctx, history } = setup();
    const revs = ['a', 'b', 'c', 'd', 'e'].map((img, i) => owned(history.newRevision(set(img), i + 1), `u${i}`));
    await history.truncate(revs, new Set([revs[0].metadata.name!, revs[4].metadata.name!]), 1);
    assert.deepEqual(
      ctx.fake.made('DELETE').map((r) => r.path.split('/').at(-1)),
      [revs[1].metadata.name, revs[2].metadata.name],
      'revision 1 is live (a Pod runs it), 4 is the one kept',
    );
  });

  it('adopts orphan revisions the selector matches', async () => {
    const { ctx, history } = setup();
    const orphan = owned(history.newRevision(set('a'), 1));
    orphan.metadata.ownerReferences = [];
    ctx.cache(CONTROLLERREVISIONS, orphan);
    ctx.fake.on((req) => (req.method === 'PATCH' ? { ...orphan, metadata: { ...orphan.metadata, ownerReferences: [{}] } } : undefined));
    const found = await history.owned(set('a'), labelSelectorFromObject({ matchLabels: { app: 'db' } }), async () => set('a'));
    assert.equal(found.length, 1);
    assert.equal(ctx.fake.made('PATCH', '/controllerrevisions/').length, 1);
  });
});
