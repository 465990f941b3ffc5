/**
 * End to end: orch-apiserver and orch-controller-manager as processes in `--api-domain=k8s.io` mode,
 * driven by the real kubectl, the test acting as the kubelet (Pod status through /status):
 * `kubectl create deployment --replicas=3` gives one ReplicaSet and 3 Pods within 2 s; ready Pods let
 * `kubectl rollout status` succeed; `kubectl set image` rolls out revision 2, `kubectl rollout undo`
 * brings the first template back as revision 3, and `rollout history` lists them; `kubectl expose`
 * gives a Service Endpoints and EndpointSlices for its ready Pods; a StatefulSet with a volume claim
 * template gets ordinal Pods and their PVCs, and `rollout status` succeeds; StatefulSet and DaemonSet
 * history (ControllerRevisions) serves `rollout history` and `rollout undo`; a ReplicationController's
 * ready Pods show in `kubectl get rc`'s READY column.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { newKubectl } from '../support/kubectl.js';
import { newTestClient, type TestClient } from '../support/http-client.js';
import { eventually } from '../support/eventually.js';
import { setPodsReady } from '../support/node-agent.js';
import { startProcess, type Proc } from '../support/processes.js';
import { startLocalApiServer, type LocalApiServer } from '../../scripts/bench/local-cluster.js';
import { seededCertDirArgs } from '../support/test-pki.js';

const CONTROLLER_MANAGER = 'dist/controllers/cmd/controller-manager.js';

/** A client from the kubeconfig's server, CA and token. */
function clientFor(kubeconfig: string): TestClient {
  const cfg = parse(readFileSync(kubeconfig, 'utf8'));
  const cluster = cfg.clusters[0].cluster;
  const user = cfg.users[0].user;
  const ca = cluster['certificate-authority-data']
    ? Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8')
    : readFileSync(cluster['certificate-authority'], 'utf8');
  return newTestClient({ url: cluster.server, ca, token: user.token });
}

describe('kubectl workflows on workloads (k8s.io domain)', () => {
  let server: LocalApiServer;
  let manager: Proc;
  let k: ReturnType<typeof newKubectl>;
  let api: TestClient;

  before(async () => {
    server = await startLocalApiServer({ args: ['--api-domain=k8s.io'] });
    k = newKubectl(server.kubeconfig);
    api = clientFor(server.kubeconfig);
    manager = startProcess(process.execPath, [
      CONTROLLER_MANAGER,
      '--kubeconfig',
      server.kubeconfig,
      '--secure-port=0',
      ...seededCertDirArgs(),
      '--bind-address=127.0.0.1',
      '--api-domain=k8s.io',
      '--leader-elect=false',
    ]);
    await manager.waitFor(/"msg":"started controller".*deployment-controller/, 30_000);
  });
  /** The kubelet: reports new Pods ready until the Deployment's latest generation is rolled out. */
  const actAsKubeletUntilRolledOut = async (name: string) => {
    for (let i = 0; i < 300; i++) {
      await setPodsReady(api, 'default', `app=${name}`);
      const d = (await api.get(`/apis/apps/v1/namespaces/default/deployments/${name}`)).body;
      const s = d.status ?? {};
      if (s.observedGeneration === d.metadata.generation && s.updatedReplicas === 3 && s.availableReplicas === 3 && s.replicas === 3)
        return;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  after(async () => {
    api?.close();
    await manager?.stop();
    await server?.stop();
  });

  it('create deployment → 1 ReplicaSet and 3 Pods within 2 s; rollout status; set image; rollout undo', async (t) => {
    const started = Date.now();
    await k.ok(['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=3']);
    const created = Date.now() - started;
    await eventually(
      '1 ReplicaSet and 3 Pods',
      async () => {
        const rs = (await api.get('/apis/apps/v1/namespaces/default/replicasets?labelSelector=app%3Dweb')).body.items;
        const pods = (await api.get('/api/v1/namespaces/default/pods?labelSelector=app%3Dweb')).body.items;
        return rs.length === 1 && pods.length === 3;
      },
      10_000,
    );
    const ms = Date.now() - started;
    t.diagnostic(
      `kubectl create deployment --replicas=3 → 1 ReplicaSet and 3 Pods in ${ms} ms (of which the kubectl process ${created} ms)`,
    );
    // The controllers' share: from the Deployment's creation (kubectl has returned) to 3 Pods.
    assert.ok(ms - created < 2000, `took ${ms - created} ms after kubectl returned`);

    await setPodsReady(api, 'default', 'app=web');
    const status = await k.ok(['rollout', 'status', 'deployment/web', '--timeout=20s']);
    assert.match(status, /deployment "web" successfully rolled out/);
    const rs1 = JSON.parse(await k.ok(['get', 'rs', '-l', 'app=web', '-o', 'json'])).items[0];
    assert.equal(rs1.metadata.annotations['deployment.kubernetes.io/revision'], '1');
    const describe = await k.ok(['describe', 'rs', rs1.metadata.name]);
    assert.match(describe, /Pods Status:\s+3 Running \/ 0 Waiting \/ 0 Succeeded \/ 0 Failed/);
    assert.match(describe, /SuccessfulCreate/);

    await k.ok(['set', 'image', 'deployment/web', 'nginx=nginx:1.26']);
    // The kubelet: keep reporting new Pods ready while kubectl waits for the rollout.
    const kubelet = actAsKubeletUntilRolledOut('web');
    assert.match(await k.ok(['rollout', 'status', 'deployment/web', '--timeout=30s']), /successfully rolled out/);
    await kubelet;
    const history = await k.ok(['rollout', 'history', 'deployment/web']);
    assert.match(history, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);

    assert.match(await k.ok(['rollout', 'undo', 'deployment/web']), /deployment.apps\/web rolled back/);
    const undoKubelet = actAsKubeletUntilRolledOut('web');
    assert.match(await k.ok(['rollout', 'status', 'deployment/web', '--timeout=30s']), /successfully rolled out/);
    await undoKubelet;
    const image = await k.ok(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}']);
    assert.equal(image, 'nginx:1.25');
    const rss = JSON.parse(await k.ok(['get', 'rs', '-l', 'app=web', '-o', 'json'])).items as any[];
    assert.equal(rss.length, 2, 'the first ReplicaSet is reused, not a third one');
    const back = rss.find((rs) => rs.metadata.name === rs1.metadata.name);
    assert.equal(back.metadata.annotations['deployment.kubernetes.io/revision'], '3');
    assert.equal(back.metadata.annotations['deployment.kubernetes.io/revision-history'], '1');
    assert.equal(back.spec.replicas, 3);
    assert.match(await k.ok(['rollout', 'history', 'deployment/web']), /REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/);
    const events = await k.ok(['events', '--for', 'deployment/web']);
    assert.match(events, /ScalingReplicaSet/);
  });

  it('rollout undo of an applied Deployment (no resources) reuses the old ReplicaSet: history 1, 3, 4', async () => {
    // kubectl apply sends the manifest as written; rollout undo sends the old template marshalled from
    // Go (resources: {}, creationTimestamp: null), which must match that ReplicaSet's template.
    const manifest = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'undo', labels: { app: 'undo' } },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'undo' } },
        template: { metadata: { labels: { app: 'undo' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.24' }] } },
      },
    };
    await k.ok(['apply', '-f', '-'], { input: JSON.stringify(manifest) });
    const rollOut = async () => {
      const kubelet = actAsKubeletUntilRolledOut('undo');
      assert.match(await k.ok(['rollout', 'status', 'deployment/undo', '--timeout=30s']), /successfully rolled out/);
      await kubelet;
    };
    await rollOut();
    await k.ok(['set', 'image', 'deployment/undo', 'nginx=nginx:1.25']);
    await rollOut();
    await k.ok(['set', 'image', 'deployment/undo', 'nginx=nginx:1.26']);
    await rollOut();
    assert.match(await k.ok(['rollout', 'undo', 'deployment/undo']), /deployment.apps\/undo rolled back/);
    await rollOut();
    const rss = JSON.parse(await k.ok(['get', 'rs', '-l', 'app=undo', '-o', 'json'])).items as any[];
    assert.equal(rss.length, 3, `the 1.25 ReplicaSet is reused: ${rss.map((rs) => rs.metadata.name).join(' ')}`);
    const revisions = rss
      .map((rs) => `${rs.metadata.annotations['deployment.kubernetes.io/revision']}=${rs.spec.template.spec.containers[0].image}`)
      .sort();
    assert.deepEqual(revisions, ['1=nginx:1.24', '3=nginx:1.26', '4=nginx:1.25']);
    assert.match(await k.ok(['rollout', 'history', 'deployment/undo']), /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n3\s+<none>\n4\s+<none>\n/);
  });

  it('controllers write Events as kube-controller-manager does: get events --sort-by=.lastTimestamp, describe ages', async () => {
    const sorted = await k.ok(['get', 'events', '--sort-by=.lastTimestamp', '--field-selector=involvedObject.name=undo']);
    assert.match(sorted, /LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE\n/);
    assert.match(sorted, /\d+s\s+Normal\s+ScalingReplicaSet\s+deployment\/undo\s+Scaled up replica set undo-\w+ to 3/);
    const described = await k.ok(['describe', 'deployment', 'undo']);
    assert.match(described, /Normal\s+ScalingReplicaSet\s+\d+s\s+deployment-controller\s+Scaled up replica set undo-\w+ to 3/);
    const event = JSON.parse(await k.ok(['get', 'events', '--field-selector=involvedObject.name=undo', '-o', 'json'])).items[0];
    assert.deepEqual(event.source, { component: 'deployment-controller' });
    assert.ok(event.firstTimestamp && event.lastTimestamp && event.count >= 1, JSON.stringify(event));
  });

  it('kubectl expose: the Service gets Endpoints and EndpointSlices for its ready Pods', async () => {
    await k.ok(['create', 'deployment', 'api', '--image=nginx:1.25', '--replicas=2', '--port=8080']);
    await k.ok(['expose', 'deployment', 'api', '--port=80', '--target-port=8080']);
    await eventually(
      '2 Pods',
      async () => (await api.get('/api/v1/namespaces/default/pods?labelSelector=app%3Dapi')).body.items.length === 2,
    );
    const ready = await setPodsReady(api, 'default', 'app=api');
    const ep = await eventually('Endpoints with 2 addresses', async () => {
      const r = await k.run(['get', 'endpoints', 'api', '-o', 'json']);
      const e = r.code === 0 ? JSON.parse(r.stdout) : undefined;
      return e?.subsets?.[0]?.addresses?.length === 2 && e;
    });
    assert.deepEqual(ep.subsets[0].addresses.map((a: any) => a.targetRef.name).sort(), ready.sort());
    assert.deepEqual(ep.subsets[0].ports, [{ port: 8080, protocol: 'TCP' }]);
    const slices = JSON.parse(await k.ok(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=api', '-o', 'json'])).items;
    assert.equal(slices.length, 1);
    assert.equal(slices[0].metadata.labels['endpointslice.kubernetes.io/managed-by'], 'endpointslice-controller.k8s.io');
    assert.deepEqual(
      slices[0].endpoints.map((e: any) => e.conditions.ready),
      [true, true],
    );
    assert.match(await k.ok(['describe', 'service', 'api']), /Endpoints:\s+10\.0\.\d+\.\d+:8080,10\.0\.\d+\.\d+:8080/);
  });

  it('a StatefulSet with a volume claim template gets ordinal Pods and PVCs; rollout status succeeds', async () => {
    const manifest = [
      'apiVersion: apps/v1',
      'kind: StatefulSet',
      'metadata: {name: db}',
      'spec:',
      '  serviceName: db',
      '  replicas: 3',
      '  selector: {matchLabels: {app: db}}',
      '  template:',
      '    metadata: {labels: {app: db}}',
      '    spec: {containers: [{name: db, image: postgres:15}]}',
      '  volumeClaimTemplates:',
      '  - metadata: {name: data}',
      '    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}',
      '',
    ].join('\n');
    await k.ok(['apply', '-f', '-'], { input: manifest });
    // The kubelet: each ordinal becomes ready once it exists; OrderedReady creates the next one after.
    await eventually(
      'db-0, db-1 and db-2 ready',
      async () => {
        const names = await setPodsReady(api, 'default', 'app=db');
        return names.length === 3 && names;
      },
      30_000,
    );
    assert.match(
      await k.ok(['rollout', 'status', 'statefulset/db', '--timeout=30s']),
      /partitioned roll out complete|rolling update complete|3 pods at revision/,
    );
    const pods = JSON.parse(await k.ok(['get', 'pods', '-l', 'app=db', '-o', 'json'])).items as any[];
    assert.deepEqual(pods.map((p) => p.metadata.name).sort(), ['db-0', 'db-1', 'db-2']);
    for (const p of pods) {
      assert.equal(p.spec.hostname, p.metadata.name);
      assert.equal(p.metadata.labels['statefulset.kubernetes.io/pod-name'], p.metadata.name);
      assert.deepEqual(p.spec.volumes.find((v: any) => v.name === 'data').persistentVolumeClaim, { claimName: `data-${p.metadata.name}` });
    }
    const claims = JSON.parse(await k.ok(['get', 'pvc', '-o', 'json'])).items as any[];
    assert.deepEqual(claims.map((c) => c.metadata.name).sort(), ['data-db-0', 'data-db-1', 'data-db-2']);
    const sts = JSON.parse(await k.ok(['get', 'statefulset', 'db', '-o', 'json']));
    assert.equal(sts.status.observedGeneration, sts.metadata.generation);
    assert.equal(sts.status.readyReplicas, 3);
    assert.equal(sts.status.currentRevision, sts.status.updateRevision);
    assert.match(await k.ok(['get', 'statefulset', 'db']), /db\s+3\/3/);
  });

  it('StatefulSet history is ControllerRevisions: set image, rollout history, rollout undo', async () => {
    await k.ok(['set', 'image', 'statefulset/db', 'db=postgres:16']);
    const rolled = async (image: string) => {
      for (let i = 0; i < 300; i++) {
        await setPodsReady(api, 'default', 'app=db');
        const s = (await api.get('/apis/apps/v1/namespaces/default/statefulsets/db')).body;
        const pods = (await api.get('/api/v1/namespaces/default/pods?labelSelector=app%3Ddb')).body.items as any[];
        const onImage = pods.filter((p) => p.spec.containers[0].image === image && !p.metadata.deletionTimestamp);
        if (s.status?.updatedReplicas === 3 && s.status.currentRevision === s.status.updateRevision && onImage.length === 3) return s;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`the StatefulSet did not roll out ${image}`);
    };
    await rolled('postgres:16');
    assert.match(await k.ok(['rollout', 'history', 'statefulset/db']), /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
    assert.match(await k.ok(['rollout', 'history', 'statefulset/db', '--revision=1']), /Image:\s+postgres:15/);
    assert.match(await k.ok(['rollout', 'undo', 'statefulset/db']), /rolled back/);
    const back = await rolled('postgres:15');
    assert.equal(back.spec.template.spec.containers[0].image, 'postgres:15');
    assert.match(await k.ok(['rollout', 'history', 'statefulset/db']), /REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/);
    const revisions = JSON.parse(await k.ok(['get', 'controllerrevisions', '-l', 'app=db', '-o', 'json'])).items as any[];
    assert.deepEqual(revisions.map((r) => r.revision).sort(), [2, 3]);
    assert.ok(revisions.some((r) => r.metadata.name === back.status.updateRevision));
  });

  it('DaemonSet history is ControllerRevisions: rollout history and rollout undo', async () => {
    assert.equal((await api.post('/api/v1/nodes', { metadata: { name: 'node-a' } })).status, 201);
    const manifest = [
      'apiVersion: apps/v1',
      'kind: DaemonSet',
      'metadata: {name: agent}',
      'spec:',
      '  selector: {matchLabels: {app: agent}}',
      '  template:',
      '    metadata: {labels: {app: agent}}',
      '    spec: {containers: [{name: agent, image: agent:1}]}',
      '',
    ].join('\n');
    await k.ok(['apply', '-f', '-'], { input: manifest });
    await eventually('the daemon Pod', async () => (await setPodsReady(api, 'default', 'app=agent')).length === 1);
    await k.ok(['set', 'image', 'daemonset/agent', 'agent=agent:2']);
    const onImage = (image: string) =>
      eventually(`the daemon Pod runs ${image}`, async () => {
        await setPodsReady(api, 'default', 'app=agent');
        const pods = (await api.get('/api/v1/namespaces/default/pods?labelSelector=app%3Dagent')).body.items as any[];
        return pods.length === 1 && pods[0].spec.containers[0].image === image && !pods[0].metadata.deletionTimestamp;
      });
    await onImage('agent:2');
    assert.match(await k.ok(['rollout', 'history', 'daemonset/agent']), /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
    assert.match(await k.ok(['rollout', 'undo', 'daemonset/agent']), /rolled back/);
    await onImage('agent:1');
    assert.match(await k.ok(['rollout', 'history', 'daemonset/agent']), /REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/);
  });

  it('a ReplicationController gets its Pods; kubectl get rc shows them READY', async () => {
    const manifest = [
      'apiVersion: v1',
      'kind: ReplicationController',
      'metadata: {name: legacy}',
      'spec:',
      '  replicas: 2',
      '  selector: {app: legacy}',
      '  template:',
      '    metadata: {labels: {app: legacy}}',
      '    spec: {containers: [{name: c, image: nginx:1.25}]}',
      '',
    ].join('\n');
    await k.ok(['apply', '-f', '-'], { input: manifest });
    await eventually('2 Pods ready', async () => (await setPodsReady(api, 'default', 'app=legacy')).length === 2);
    const table = await eventually('READY 2/2', async () => {
      const out = await k.ok(['get', 'rc', 'legacy']);
      return /legacy\s+2\s+2\s+2\s/.test(out) && out;
    });
    assert.match(table, /NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE/);
    await k.ok(['scale', 'rc', 'legacy', '--replicas=1']);
    await eventually(
      '1 Pod',
      async () => (await api.get('/api/v1/namespaces/default/pods?labelSelector=app%3Dlegacy')).body.items.length === 1,
    );
    assert.match(await k.ok(['describe', 'rc', 'legacy']), /SuccessfulDelete/);
  });
});
