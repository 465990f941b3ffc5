/**
 * The API server's side of deletion propagation, over REST: DeleteOptions turn into the `orphan` and
 * `foregroundDeletion` finalizers (which keep the object until the garbage collector acts), validated
 * like Kubernetes' ValidateDeleteOptions.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';

describe('DELETE propagation options', () => {
  let srv: TestServer;
  const cms = '/api/v1/namespaces/default/configmaps';
  const make = async (name: string, finalizers?: string[]) => {
    const r = await srv.client.post(cms, { metadata: { name, finalizers } });
    assert.equal(r.status, 201, r.text);
  };

  before(async () => {
    srv = await startTestServer();
  });
  after(() => srv?.stop());

  it('Orphan and Foreground keep the object, deleting, with their finalizer; Background deletes it', async () => {
    await make('orphaned');
    const orphan = await srv.client.delete(`${cms}/orphaned?propagationPolicy=Orphan`);
    assert.equal(orphan.status, 200);
    assert.deepEqual(orphan.body.metadata.finalizers, ['orphan']);
    assert.ok(orphan.body.metadata.deletionTimestamp);
    assert.deepEqual((await srv.client.get(`${cms}/orphaned`)).body.metadata.finalizers, ['orphan']);

    await make('foreground');
    const fg = await srv.client.delete(`${cms}/foreground`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' });
    assert.equal(fg.status, 200);
    assert.deepEqual(fg.body.metadata.finalizers, ['foregroundDeletion']);

    await make('background');
    const bg = await srv.client.delete(`${cms}/background?propagationPolicy=Background`);
    assert.equal(bg.status, 200);
    assert.equal(bg.body.kind, 'Status');
    assert.equal((await srv.client.get(`${cms}/background`)).status, 404);
  });

  it('the deprecated orphanDependents: true orphans; false deletes, answering 202 while a finalizer holds the object', async () => {
    await make('od-true');
    const t = await srv.client.delete(`${cms}/od-true?orphanDependents=true`);
    assert.deepEqual([t.status, t.body.metadata.finalizers], [200, ['orphan']]);

    await make('od-false');
    const f = await srv.client.delete(`${cms}/od-false?orphanDependents=false`);
    assert.deepEqual([f.status, f.body.kind], [200, 'Status']);

    await make('held', ['example.com/hold']);
    const held = await srv.client.delete(`${cms}/held`, { orphanDependents: false });
    assert.equal(held.status, 202);
    assert.deepEqual(held.body.metadata.finalizers, ['example.com/hold']);
  });

  it('a second DELETE may switch the policy of an object that is still held', async () => {
    await make('switch', ['example.com/hold']);
    await srv.client.delete(`${cms}/switch?propagationPolicy=Orphan`);
    const fg = await srv.client.delete(`${cms}/switch?propagationPolicy=Foreground`);
    assert.deepEqual(fg.body.metadata.finalizers, ['example.com/hold', 'foregroundDeletion']);
    const bg = await srv.client.delete(`${cms}/switch?propagationPolicy=Background`);
    assert.deepEqual(bg.body.metadata.finalizers, ['example.com/hold']);
  });

  it('dry run shows the finalizers without storing them; deletecollection applies them to each object', async () => {
    await make('dry');
    const dry = await srv.client.delete(`${cms}/dry?dryRun=All&propagationPolicy=Orphan`);
    assert.deepEqual(dry.body.metadata.finalizers, ['orphan']);
    assert.equal((await srv.client.get(`${cms}/dry`)).body.metadata.finalizers, undefined);

    await createNamespace(srv.client, 'collection');
    for (const name of ['a', 'b']) await srv.client.post('/api/v1/namespaces/collection/configmaps', { metadata: { name } });
    const all = await srv.client.delete('/api/v1/namespaces/collection/configmaps?propagationPolicy=Orphan');
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.items.map((i: { metadata: { finalizers: string[] } }) => i.metadata.finalizers),
      [['orphan'], ['orphan']],
    );
    const left = (await srv.client.get('/api/v1/namespaces/collection/configmaps')).body.items;
    assert.equal(left.length, 2);
  });

  it('Events take no part in garbage collection: an Orphan delete removes them at once', async () => {
    const ev = await srv.client.post('/api/v1/namespaces/default/events', {
      metadata: { name: 'ev' },
      involvedObject: { kind: 'ConfigMap', namespace: 'default', name: 'x' },
      reason: 'Test',
    });
    assert.equal(ev.status, 201, ev.text);
    const del = await srv.client.delete('/api/v1/namespaces/default/events/ev?propagationPolicy=Orphan');
    assert.deepEqual([del.status, del.body.kind], [200, 'Status']);
    assert.equal((await srv.client.get('/api/v1/namespaces/default/events/ev')).status, 404);
  });

  it("a namespace's first DELETE with orphanDependents=false asks for foreground deletion (202)", async () => {
    await createNamespace(srv.client, 'fg-ns');
    const r = await srv.client.delete('/api/v1/namespaces/fg-ns?orphanDependents=false');
    assert.equal(r.status, 202);
    assert.deepEqual(r.body.metadata.finalizers, ['foregroundDeletion']);
    assert.equal(r.body.status.phase, 'Terminating');
  });

  it('rejects conflicting and unknown options with 422 on DeleteOptions', async () => {
    await make('invalid');
    const both = await srv.client.delete(`${cms}/invalid?orphanDependents=true&propagationPolicy=Orphan`);
    assert.equal(both.status, 422);
    assert.equal(both.body.reason, 'Invalid');
    assert.equal(
      both.body.message,
      'DeleteOptions.meta.orch.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    );
    assert.deepEqual(both.body.details, {
      group: 'meta.orch.io',
      kind: 'DeleteOptions',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
          field: 'propagationPolicy',
        },
      ],
    });
    const unknown = await srv.client.delete(`${cms}/invalid`, { propagationPolicy: 'Sometimes' });
    assert.equal(unknown.status, 422);
    assert.deepEqual(unknown.body.details.causes, [
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan", "nil"',
        field: 'propagationPolicy',
      },
    ]);
    assert.equal((await srv.client.get(`${cms}/invalid`)).status, 200, 'nothing was deleted');
  });
});
