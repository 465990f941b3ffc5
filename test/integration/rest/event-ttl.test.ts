/**
 * --event-ttl: Events (core and events.k8s.io, one storage) are deleted that long after their last
 * write, on etcd (a lease) and on the embedded store (its own expiry); other kinds are kept.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { useEtcd } from '../../support/etcd.js';
import { createNamespace } from '../../support/namespaces.js';
import { eventually } from '../../support/eventually.js';

const NS = '/api/v1/namespaces/ttl';

function describeEventTtl(backend: string, start: () => Promise<TestServer>): void {
  describe(`--event-ttl on ${backend}`, () => {
    let s: TestServer;
    before(async () => {
      s = await start();
      await createNamespace(s.client, 'ttl');
    });
    after(() => s?.stop());

    it('an Event goes after the TTL, a ConfigMap stays', async () => {
      const event = await s.client.post(`${NS}/events`, {
        metadata: { name: 'short-lived' },
        involvedObject: { kind: 'Pod', name: 'p', namespace: 'ttl' },
        reason: 'Tested',
        message: 'gone soon',
        type: 'Normal',
      });
      assert.equal(event.status, 201, event.text);
      await s.client.post(`${NS}/configmaps`, { metadata: { name: 'kept' } });
      const began = Date.now();
      await eventually('the Event expired', async () => (await s.client.get(`${NS}/events/short-lived`)).status === 404, 15_000);
      assert.ok(Date.now() - began >= 1000, 'not before its TTL');
      assert.equal((await s.client.get(`${NS}/configmaps/kept`)).status, 200);
    });
  });
}

describeEventTtl('the embedded store', () => startTestServer({ args: ['--event-ttl=2s'] }));

describe('on etcd', () => {
  const etcd = useEtcd();
  describeEventTtl('etcd', () => startTestServer({ etcd: etcd(), args: ['--event-ttl=2s'] }));
});
