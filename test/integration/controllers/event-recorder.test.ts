/**
 * The controllers' event recorder against a real orch-apiserver: events.<domain>/v1 Events written
 * in the object's namespace, repeats counted in the first one's series, and core v1 clients (kubectl
 * describe) seeing them as the conversion shows them.
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

  it('writes an Event, then counts repeats in its series', async () => {
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
    const events = (await srv.client.get('/apis/events.orch.io/v1/namespaces/default/events')).body.items as any[];
    const bad = events.filter((e) => e.reason === 'Bad');
    assert.equal(bad.length, 1, 'one Event for three occurrences');
    assert.equal(bad[0].series.count, 3);
    assert.ok(bad[0].series.lastObservedTime);
    assert.match(bad[0].metadata.name, /^watched\.[0-9a-f]+$/);
    assert.deepEqual(
      [bad[0].type, bad[0].action, bad[0].note, bad[0].reportingController, bad[0].reportingInstance],
      ['Warning', 'Check', 'still bad', 'test-controller', 'host-1'],
    );
    assert.equal(events.filter((e) => e.reason === 'Good').length, 1);
    const core = (await srv.client.get('/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dwatched')).body
      .items as any[];
    const coreBad = core.find((e) => e.reason === 'Bad');
    assert.equal(coreBad.series.count, 3);
    assert.equal(coreBad.involvedObject.uid, cm.body.metadata.uid);
  });
});
