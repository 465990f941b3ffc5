/**
 * The controllers' event recorder against a real orch-apiserver: core v1 Events written in the
 * object's namespace as kube-controller-manager writes them (source, firstTimestamp, lastTimestamp,
 * count), repeats counted up in the first one, written anew when it is gone, and events.<domain>/v1
 * clients seeing them as the conversion shows them.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newApiDomain } from '../../../apiserver/api/domain.js';
import { newLogger } from '../../../apiserver/component-base/logs/logger.js';
import { ApiClient } from '../../../controllers/client/api-client.js';
import { ApiEventRecorder } from '../../../controllers/events/event-recorder.js';

describe('event recorder against orch-apiserver', () => {
  let srv: TestServer;
  let client: ApiClient;
  before(async () => {
    srv = await startTestServer();
    client = ApiClient.fromKubeconfig(srv.kubeconfig);
  });
  after(async () => {
    client?.close();
    await srv?.stop();
  });

  it('writes a core Event with source, timestamps and count, then counts repeats in it', async () => {
    const cm = await srv.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'watched' } });
    const recorder = new ApiEventRecorder({
      client,
      domain: newApiDomain(),
      controller: 'test-controller',
      instance: 'host-1',
      logger: newLogger({ logLevel: 'error' }),
    });
    const regarding = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'watched', uid: cm.body.metadata.uid };
    for (let i = 0; i < 3; i++) recorder.event(regarding, 'Warning', 'Bad', 'Check', 'still bad');
    recorder.event(regarding, 'Normal', 'Good', 'Check', 'fine now');
    await recorder.flush();
    const core = (await srv.client.get('/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dwatched')).body
      .items as any[];
    const bad = core.filter((e) => e.reason === 'Bad');
    assert.equal(bad.length, 1, 'one Event for three occurrences');
    assert.match(bad[0].metadata.name, /^watched\.[0-9a-f]+$/);
    assert.deepEqual(
      [bad[0].type, bad[0].message, bad[0].count, bad[0].source, bad[0].reportingComponent, bad[0].involvedObject.uid],
      ['Warning', 'still bad', 3, { component: 'test-controller' }, 'test-controller', cm.body.metadata.uid],
    );
    assert.match(bad[0].firstTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.ok(bad[0].lastTimestamp >= bad[0].firstTimestamp);
    const good = core.find((e) => e.reason === 'Good');
    assert.equal(good.count, 1);
    assert.equal(good.firstTimestamp, good.lastTimestamp);

    const v1 = (await srv.client.get(`/apis/events.orch.io/v1/namespaces/default/events/${bad[0].metadata.name}`)).body;
    assert.deepEqual(
      [v1.note, v1.regarding.name, v1.deprecatedCount, v1.deprecatedSource, v1.reportingController],
      ['still bad', 'watched', 3, { component: 'test-controller' }, 'test-controller'],
    );

    // Gone (as after --event-ttl): the next repeat writes it again under its name, still counting.
    assert.equal((await srv.client.delete(`/api/v1/namespaces/default/events/${bad[0].metadata.name}`)).status, 200);
    recorder.event(regarding, 'Warning', 'Bad', 'Check', 'still bad');
    await recorder.flush();
    const again = (await srv.client.get(`/api/v1/namespaces/default/events/${bad[0].metadata.name}`)).body;
    assert.equal(again.count, 4);
    assert.equal(again.firstTimestamp, bad[0].firstTimestamp);
  });
});
