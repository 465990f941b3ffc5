/**
 * The workload controllers of orch-controller-manager, run in this process against a real
 * orch-apiserver (SQLite store, HTTPS). The test acts as the kubelet: it writes Pod status.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { eventually } from '../../support/eventually.js';
import { setPodFinished, setPodReady, setPodsReady } from '../../support/node-agent.js';
import { parseOptions } from '../../../controllers/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../../controllers/app/controller-manager.js';
import { newLogger } from '../../../apiserver/component-base/logs/logger.js';
import { seededCertDirArgs } from '../../support/test-pki.js';

const NS = 'work';

describe('workload controllers against orch-apiserver', () => {
  let srv: TestServer;
  let manager: RunningControllerManager;
  const api = () => srv.client;
  const pods = async (selector: string) =>
    (await api().get(`/api/v1/namespaces/${NS}/pods?labelSelector=${encodeURIComponent(selector)}`)).body.items as any[];

  before(async () => {
    // The tests act as the kubelet but run no node lifecycle controller, which is what lifts the
    // not-ready taint TaintNodesByCondition puts on new Nodes; without it no DaemonSet Pod would fit.
    srv = await startTestServer({ args: ['--disable-admission-plugins=TaintNodesByCondition'] });
    manager = await runControllerManager(
      parseOptions([
        '--kubeconfig',
        srv.kubeconfig,
        '--secure-port=0',
        ...seededCertDirArgs(),
        '--bind-address=127.0.0.1',
        '--leader-elect=false',
        '--controllers=serviceaccount,replicaset,replicationcontroller,statefulset,deployment,endpoint,endpointslice,endpointslicemirroring,job,ttl-after-finished,garbagecollector,disruption,daemonset,resourcequota,pvc-protection,pv-protection,persistentvolume-binder,ttl',
      ]),
      { logger: newLogger({ logLevel: 'error' }), gcSyncPeriodMs: 1000 },
    );
    assert.equal((await api().post('/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
  });
  after(async () => {
    await manager?.stop();
    await srv?.stop();
  });

  describe('replicaset-controller', () => {
    const rs = (replicas: number) => ({
      metadata: { name: 'web' },
      spec: {
        replicas,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    });
    const rsPath = `/apis/apps/v1/namespaces/${NS}/replicasets/web`;

    it('creates owned Pods, counts them ready as the kubelet reports, scales down, and records events', async () => {
      const created = await api().post(`/apis/apps/v1/namespaces/${NS}/replicasets`, rs(3));
      assert.equal(created.status, 201, created.text);
      const uid = created.body.metadata.uid;
      const three = await eventually('3 Pods', async () => {
        const p = await pods('app=web');
        return p.length === 3 && p;
      });
      for (const p of three) {
        assert.equal(p.metadata.ownerReferences[0].uid, uid);
        assert.match(p.metadata.name, /^web-[a-z0-9]{5}$/);
      }
      await eventually('status.replicas 3', async () => (await api().get(rsPath)).body.status?.replicas === 3);

      await setPodReady(api(), NS, three[0].metadata.name);
      await setPodReady(api(), NS, three[1].metadata.name);
      const status = await eventually('2 ready', async () => {
        const s = (await api().get(rsPath)).body.status;
        return s?.readyReplicas === 2 && s;
      });
      assert.equal(status.availableReplicas, 2);
      assert.equal(status.fullyLabeledReplicas, 3);
      assert.equal(status.observedGeneration, 1);

      const scaled = await api().patch(rsPath, { spec: { replicas: 2 } }, 'application/merge-patch+json');
      assert.equal(scaled.status, 200, scaled.text);
      const left = await eventually('2 Pods', async () => {
        const p = await pods('app=web');
        return p.length === 2 && p;
      });
      assert.deepEqual(
        left.map((p) => p.metadata.name).sort(),
        [three[0].metadata.name, three[1].metadata.name].sort(),
        'the not-ready Pod went',
      );
      await eventually('status of the scaled ReplicaSet', async () => {
        const s = (await api().get(rsPath)).body.status;
        return s.replicas === 2 && s.observedGeneration === 2;
      });

      const events = await eventually('events for the ReplicaSet', async () => {
        const list = (await api().get(`/apis/events.orch.io/v1/namespaces/${NS}/events`)).body.items as any[];
        const mine = list.filter((e) => e.regarding?.uid === uid);
        return mine.length >= 4 && mine;
      });
      assert.equal(events.filter((e) => e.reason === 'SuccessfulCreate').length, 3);
      assert.equal(events.filter((e) => e.reason === 'SuccessfulDelete').length, 1);
      for (const e of events) {
        assert.equal(e.reportingController, 'replicaset-controller');
        assert.equal(e.regarding.kind, 'ReplicaSet');
        assert.ok(e.reportingInstance);
      }
    });

    it('adopts a matching orphan Pod instead of creating one, and puts back a deleted Pod', async () => {
      const orphan = await api().post(`/api/v1/namespaces/${NS}/pods`, {
        metadata: { name: 'orphan', labels: { app: 'adopt' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      });
      assert.equal(orphan.status, 201, orphan.text);
      const body = rs(2);
      body.metadata.name = 'adopter';
      body.spec.selector.matchLabels.app = 'adopt';
      body.spec.template.metadata.labels.app = 'adopt';
      const created = await api().post(`/apis/apps/v1/namespaces/${NS}/replicasets`, body);
      const two = await eventually('2 Pods, one adopted', async () => {
        const p = await pods('app=adopt');
        return p.length === 2 && p.every((x) => x.metadata.ownerReferences?.[0]?.uid === created.body.metadata.uid) && p;
      });
      assert.ok(two.some((p) => p.metadata.name === 'orphan'));
      assert.equal((await api().delete(`/api/v1/namespaces/${NS}/pods/orphan`)).status, 200);
      await eventually('a replacement', async () => {
        const p = await pods('app=adopt');
        return p.length === 2 && !p.some((x) => x.metadata.name === 'orphan');
      });
      await setPodsReady(api(), NS, 'app=adopt');
    });
  });

  describe('replicationcontroller-controller', () => {
    it('runs the ReplicaSet logic on a ReplicationController: owned Pods by its label map, status, scale down, events', async () => {
      const rcPath = `/api/v1/namespaces/${NS}/replicationcontrollers/legacy`;
      const created = await api().post(`/api/v1/namespaces/${NS}/replicationcontrollers`, {
        metadata: { name: 'legacy' },
        spec: {
          replicas: 2,
          selector: { app: 'legacy' },
          template: { metadata: { labels: { app: 'legacy' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        },
      });
      assert.equal(created.status, 201, created.text);
      const uid = created.body.metadata.uid;
      const two = await eventually('2 Pods', async () => {
        const p = await pods('app=legacy');
        return p.length === 2 && p;
      });
      for (const p of two) {
        assert.deepEqual(p.metadata.ownerReferences, [
          { apiVersion: 'v1', kind: 'ReplicationController', name: 'legacy', uid, controller: true, blockOwnerDeletion: true },
        ]);
      }
      await setPodsReady(api(), NS, 'app=legacy');
      await eventually('2 ready', async () => {
        const s = (await api().get(rcPath)).body.status;
        return s?.replicas === 2 && s.readyReplicas === 2 && s.availableReplicas === 2 && s.observedGeneration === 1;
      });
      const scaled = await api().put(`${rcPath}/scale`, {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'legacy', namespace: NS },
        spec: { replicas: 1 },
      });
      assert.equal(scaled.status, 200, scaled.text);
      await eventually('1 Pod', async () => (await pods('app=legacy')).length === 1);
      const events = await eventually('events for the ReplicationController', async () => {
        const list = (await api().get(`/apis/events.orch.io/v1/namespaces/${NS}/events`)).body.items as any[];
        const mine = list.filter((e) => e.regarding?.uid === uid);
        return mine.length >= 3 && mine;
      });
      for (const e of events) {
        assert.equal(e.reportingController, 'replication-controller');
        assert.equal(e.regarding.kind, 'ReplicationController');
      }
    });
  });

  describe('deployment-controller', () => {
    const dPath = `/apis/apps/v1/namespaces/${NS}/deployments`;
    const deployment = (name: string, image: string, strategy: Record<string, unknown> = {}) => ({
      metadata: { name },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } },
        ...strategy,
      },
    });
    const replicaSetsOf = async (app: string) =>
      ((await api().get(`/apis/apps/v1/namespaces/${NS}/replicasets?labelSelector=app%3D${app}`)).body.items as any[]).sort(
        (a, b) =>
          Number(a.metadata.annotations['deployment.orch.io/revision']) - Number(b.metadata.annotations['deployment.orch.io/revision']),
      );
    /** Acts as the kubelet until the Deployment reports a finished rollout. */
    const rolledOut = (name: string) =>
      eventually(
        `${name} rolled out`,
        async () => {
          await setPodsReady(api(), NS, `app=${name}`);
          const d = (await api().get(`${dPath}/${name}`)).body;
          const s = d.status ?? {};
          const progressing = s.conditions?.find((c: any) => c.type === 'Progressing');
          return (
            s.observedGeneration === d.metadata.generation &&
            s.updatedReplicas === 3 &&
            s.replicas === 3 &&
            s.availableReplicas === 3 &&
            progressing?.reason === 'NewReplicaSetAvailable' &&
            d
          );
        },
        30_000,
      );

    it('rolls out a new template one surge at a time and keeps revisions', async () => {
      assert.equal((await api().post(dPath, deployment('roll', 'nginx:1'))).status, 201);
      await eventually(
        '1 ReplicaSet and 3 Pods',
        async () => (await replicaSetsOf('roll')).length === 1 && (await pods('app=roll')).length === 3,
      );
      const first = await rolledOut('roll');
      assert.equal(first.metadata.annotations['deployment.orch.io/revision'], '1');

      // Never more than 3 + maxSurge (1) Pods asked of the ReplicaSets at once. This is the bound Kubernetes keeps: it
      // counts the ReplicaSets' replicas, so the Pods that exist may briefly be one more, while the old ReplicaSet's
      // controller has yet to delete the Pod its scale-down removed and the new one has already created its next.
      const patched = await api().patch(
        `${dPath}/roll`,
        { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } } },
        'application/strategic-merge-patch+json',
      );
      assert.equal(patched.status, 200, patched.text);
      let maxAsked = 0;
      const done = await eventually(
        'the second rollout',
        async () => {
          const now = (await pods('app=roll')).filter((p) => !p.metadata.deletionTimestamp);
          maxAsked = Math.max(
            maxAsked,
            (await replicaSetsOf('roll')).reduce((n, rs) => n + rs.spec.replicas, 0),
          );
          const d = (await api().get(`${dPath}/roll`)).body;
          const s = d.status ?? {};
          if (s.observedGeneration === 2 && s.updatedReplicas === 3 && s.replicas === 3 && s.availableReplicas === 3) return d;
          // The kubelet starts one new Pod at a time.
          const waiting = now.find((p) => !p.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True'));
          if (waiting) await setPodReady(api(), NS, waiting.metadata.name);
          return undefined;
        },
        30_000,
      );
      assert.ok(maxAsked <= 4, `at most replicas + maxSurge Pods asked for (saw ${maxAsked})`);
      assert.equal(done.metadata.annotations['deployment.orch.io/revision'], '2');
      const rss = await replicaSetsOf('roll');
      assert.equal(rss.length, 2);
      assert.deepEqual(
        rss.map((rs) => [
          rs.metadata.annotations['deployment.orch.io/revision'],
          rs.spec.replicas,
          rs.spec.template.spec.containers[0].image,
        ]),
        [
          ['1', 0, 'nginx:1'],
          ['2', 3, 'nginx:2'],
        ],
      );
      assert.match(rss[1].metadata.name, /^roll-[bcdfghjklmnpqrstvwxz2456789]+$/);
      assert.equal(rss[1].spec.selector.matchLabels['pod-template-hash'], rss[1].metadata.name.slice('roll-'.length));
      const events = (await api().get(`/apis/events.orch.io/v1/namespaces/${NS}/events?fieldSelector=regarding.name%3Droll`)).body
        .items as any[];
      assert.ok(
        events.some((e) => e.reason === 'ScalingReplicaSet' && /^Scaled down replica set roll-\w+ to 0 from 1$/.test(e.note)),
        JSON.stringify(events.map((e) => e.note)),
      );
    });

    it('Recreate: the old Pods are gone before any new one exists', async () => {
      assert.equal((await api().post(dPath, deployment('recreate', 'nginx:1', { strategy: { type: 'Recreate' } }))).status, 201);
      await rolledOut('recreate');
      await api().patch(
        `${dPath}/recreate`,
        { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } } },
        'application/strategic-merge-patch+json',
      );
      let mixed = false;
      await eventually(
        'the recreated Pods',
        async () => {
          const now = await pods('app=recreate');
          const images = new Set(now.map((p) => p.spec.containers[0].image));
          if (images.size > 1) mixed = true;
          return now.length === 3 && images.has('nginx:2') && images.size === 1;
        },
        30_000,
      );
      assert.equal(mixed, false, 'old and new Pods never coexist');
      await rolledOut('recreate');
    });

    it('scales, pauses and resumes', async () => {
      assert.equal((await api().post(dPath, deployment('pause', 'nginx:1'))).status, 201);
      await rolledOut('pause');
      await api().patch(
        `${dPath}/pause`,
        { spec: { paused: true, template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } } },
        'application/strategic-merge-patch+json',
      );
      const paused = await eventually('the paused condition', async () => {
        const d = (await api().get(`${dPath}/pause`)).body;
        return d.status.conditions.find((c: any) => c.type === 'Progressing' && c.reason === 'DeploymentPaused') && d;
      });
      assert.equal(paused.status.conditions.find((c: any) => c.type === 'Progressing').status, 'Unknown');
      await api().patch(`${dPath}/pause`, { spec: { replicas: 5 } }, 'application/merge-patch+json');
      await eventually('5 Pods of the old template while paused', async () => {
        const p = await pods('app=pause');
        return p.length === 5 && p.every((x) => x.spec.containers[0].image === 'nginx:1');
      });
      assert.equal((await replicaSetsOf('pause')).length, 1, 'no new ReplicaSet while paused');
      await api().patch(`${dPath}/pause`, { spec: { paused: false, replicas: 3 } }, 'application/merge-patch+json');
      await rolledOut('pause');
      const images = (await pods('app=pause')).map((p) => p.spec.containers[0].image);
      assert.deepEqual(images, ['nginx:2', 'nginx:2', 'nginx:2']);
    });
  });

  describe('endpoints-controller and endpointslice-controller', () => {
    it('give a Service Endpoints and EndpointSlices for its Pods, ready as the kubelet reports', async () => {
      const svc = await api().post(`/api/v1/namespaces/${NS}/services`, {
        metadata: { name: 'api', labels: { team: 'x' } },
        spec: { selector: { app: 'api' }, ports: [{ name: 'http', port: 80, targetPort: 'web' }] },
      });
      assert.equal(svc.status, 201, svc.text);
      for (const name of ['api-0', 'api-1', 'api-2']) {
        const r = await api().post(`/api/v1/namespaces/${NS}/pods`, {
          metadata: { name, labels: { app: 'api' } },
          spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'web', containerPort: 8080 }] }] },
        });
        assert.equal(r.status, 201, r.text);
      }
      await setPodReady(api(), NS, 'api-0');
      await setPodReady(api(), NS, 'api-1');
      await setPodReady(api(), NS, 'api-2', false);
      const ep = await eventually('Endpoints with 2 ready addresses and 1 not ready', async () => {
        const r = await api().get(`/api/v1/namespaces/${NS}/endpoints/api`);
        const ss = r.body.subsets?.[0];
        return r.status === 200 && ss?.addresses?.length === 2 && ss?.notReadyAddresses?.length === 1 && r.body;
      });
      assert.deepEqual(ep.subsets[0].ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
      assert.deepEqual(ep.subsets[0].addresses.map((a: any) => a.targetRef.name).sort(), ['api-0', 'api-1']);
      assert.equal(ep.metadata.labels.team, 'x');

      const slicesPath = `/apis/discovery.orch.io/v1/namespaces/${NS}/endpointslices?labelSelector=${encodeURIComponent('orch.io/service-name=api')}`;
      const slice = await eventually('an EndpointSlice with 2 ready of 3', async () => {
        const items = (await api().get(slicesPath)).body.items as any[];
        const s = items[0];
        return items.length === 1 && s.endpoints?.length === 3 && s.endpoints.filter((e: any) => e.conditions.ready).length === 2 && s;
      });
      assert.equal(slice.addressType, 'IPv4');
      assert.deepEqual(slice.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
      assert.equal(slice.metadata.ownerReferences[0].uid, svc.body.metadata.uid);

      assert.equal((await api().delete(`/api/v1/namespaces/${NS}/pods/api-0`)).status, 200);
      await eventually('api-0 gone from both', async () => {
        const e = (await api().get(`/api/v1/namespaces/${NS}/endpoints/api`)).body;
        const s = (await api().get(slicesPath)).body.items[0];
        return e.subsets?.[0]?.addresses?.length === 1 && s.endpoints.length === 2;
      });
      const slices = (await api().get(slicesPath)).body.items as any[];
      assert.equal(slices.length, 1, 'updated in place, never duplicated');

      assert.equal((await api().delete(`/api/v1/namespaces/${NS}/services/api`)).status, 200);
      await eventually('the Endpoints and slices gone', async () => {
        const e = await api().get(`/api/v1/namespaces/${NS}/endpoints/api`);
        return e.status === 404 && (await api().get(slicesPath)).body.items.length === 0;
      });
    });
  });

  describe('endpointslice-mirroring-controller', () => {
    it('mirrors hand-written Endpoints of a selector-less Service into an EndpointSlice', async () => {
      assert.equal(
        (
          await api().post(`/api/v1/namespaces/${NS}/services`, {
            metadata: { name: 'external' },
            spec: { ports: [{ name: 'pg', port: 5432 }] },
          })
        ).status,
        201,
      );
      const ep = await api().post(`/api/v1/namespaces/${NS}/endpoints`, {
        metadata: { name: 'external' },
        subsets: [{ addresses: [{ ip: '192.168.7.1' }], notReadyAddresses: [{ ip: '192.168.7.2' }], ports: [{ name: 'pg', port: 5432 }] }],
      });
      assert.equal(ep.status, 201, ep.text);
      const path = `/apis/discovery.orch.io/v1/namespaces/${NS}/endpointslices?labelSelector=${encodeURIComponent('orch.io/service-name=external')}`;
      const slice = await eventually('a mirrored slice', async () => (await api().get(path)).body.items[0]);
      assert.equal(slice.metadata.labels['endpointslice.orch.io/managed-by'], 'endpointslicemirroring-controller.orch.io');
      assert.deepEqual(
        slice.endpoints.map((e: any) => [e.addresses[0], e.conditions.ready]),
        [
          ['192.168.7.1', true],
          ['192.168.7.2', false],
        ],
      );
      const stored = (await api().get(`/api/v1/namespaces/${NS}/endpoints/external`)).body;
      assert.equal(stored.subsets[0].addresses[0].ip, '192.168.7.1', 'the endpoints controller leaves selector-less Endpoints alone');
      assert.equal((await api().delete(`/api/v1/namespaces/${NS}/endpoints/external`)).status, 200);
      await eventually('the mirrored slice gone', async () => (await api().get(path)).body.items.length === 0);
    });
  });

  describe('job-controller', () => {
    const jobsPath = `/apis/batch/v1/namespaces/${NS}/jobs`;
    const jobPods = async (name: string) =>
      (await pods(`batch.orch.io/job-name=${name}`)).filter((p) => !['Succeeded', 'Failed'].includes(p.status?.phase));

    it('runs Pods one at a time to 2 completions as the kubelet reports them finished', async () => {
      const created = await api().post(jobsPath, {
        metadata: { name: 'count' },
        spec: {
          completions: 2,
          parallelism: 1,
          template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
        },
      });
      assert.equal(created.status, 201, created.text);
      for (let i = 0; i < 2; i++) {
        const [running] = await eventually(`Pod ${i + 1}`, async () => {
          const p = await jobPods('count');
          return p.length === 1 && p;
        });
        await setPodFinished(api(), NS, running.metadata.name);
      }
      const job = await eventually('Complete', async () => {
        const j = (await api().get(`${jobsPath}/count`)).body;
        return j.status?.conditions?.some((c: any) => c.type === 'Complete' && c.status === 'True') && j;
      });
      assert.equal(job.status.succeeded, 2);
      assert.equal(job.status.active, 0);
      assert.ok(job.status.completionTime);
    });

    it('deletes a finished Job with ttlSecondsAfterFinished 0, and its Pods with it', async () => {
      await api().post(jobsPath, {
        metadata: { name: 'ttl' },
        spec: { ttlSecondsAfterFinished: 0, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
      });
      const [p] = await eventually('a Pod', async () => {
        const x = await jobPods('ttl');
        return x.length === 1 && x;
      });
      await setPodFinished(api(), NS, p.metadata.name);
      await eventually('the Job gone', async () => (await api().get(`${jobsPath}/ttl`)).status === 404);
      await eventually('its Pod gone', async () => (await api().get(`/api/v1/namespaces/${NS}/pods/${p.metadata.name}`)).status === 404);
    });

    it('fails a Job whose Pods fail beyond backoffLimit 0', async () => {
      await api().post(jobsPath, {
        metadata: { name: 'crash' },
        spec: { backoffLimit: 0, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
      });
      const [p] = await eventually('a Pod', async () => {
        const x = await jobPods('crash');
        return x.length === 1 && x;
      });
      await setPodFinished(api(), NS, p.metadata.name, 2);
      const job = await eventually('Failed', async () => {
        const j = (await api().get(`${jobsPath}/crash`)).body;
        return j.status?.conditions?.find((c: any) => c.type === 'Failed' && c.status === 'True') && j;
      });
      assert.equal(job.status.failed, 1);
      assert.equal(job.status.conditions.find((c: any) => c.type === 'Failed').reason, 'BackoffLimitExceeded');
    });

    it('tracks Pods with the job-tracking finalizer: a deleted finished Pod still counts', async () => {
      await api().post(jobsPath, {
        metadata: { name: 'tracked' },
        spec: {
          completions: 2,
          parallelism: 1,
          template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
        },
      });
      const [first] = await eventually('a Pod', async () => {
        const x = await jobPods('tracked');
        return x.length === 1 && x;
      });
      assert.deepEqual(first.metadata.finalizers, ['batch.orch.io/job-tracking']);
      await setPodFinished(api(), NS, first.metadata.name);
      await eventually('counted, finalizer removed', async () => {
        const j = (await api().get(`${jobsPath}/tracked`)).body;
        const p = (await api().get(`/api/v1/namespaces/${NS}/pods/${first.metadata.name}`)).body;
        return j.status?.succeeded === 1 && !p.metadata.finalizers?.length;
      });
      assert.equal((await api().delete(`/api/v1/namespaces/${NS}/pods/${first.metadata.name}`)).status, 200);
      const [second] = await eventually('the second Pod', async () => {
        const x = (await jobPods('tracked')).filter((p) => p.metadata.name !== first.metadata.name);
        return x.length === 1 && x;
      });
      await setPodFinished(api(), NS, second.metadata.name);
      const job = await eventually('Complete with both counted', async () => {
        const j = (await api().get(`${jobsPath}/tracked`)).body;
        return j.status?.conditions?.some((c: any) => c.type === 'Complete') && j;
      });
      assert.deepEqual([job.status.succeeded, job.status.uncountedTerminatedPods], [2, {}]);
    });
  });

  describe('disruption-controller', () => {
    it('keeps a PodDisruptionBudget’s status as Pods become ready and unready', async () => {
      const d = await api().post(`/apis/apps/v1/namespaces/${NS}/deployments`, {
        metadata: { name: 'guarded' },
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'guarded' } },
          template: { metadata: { labels: { app: 'guarded' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        },
      });
      assert.equal(d.status, 201, d.text);
      const pdbPath = `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`;
      const created = await api().post(pdbPath, {
        metadata: { name: 'guard' },
        spec: { maxUnavailable: '33%', selector: { matchLabels: { app: 'guarded' } } },
      });
      assert.equal(created.status, 201, created.text);
      const names = await eventually('3 ready Pods', async () => {
        const n = await setPodsReady(api(), NS, 'app=guarded');
        return n.length === 3 && n;
      });
      const s = await eventually('1 disruption allowed', async () => {
        const st = (await api().get(`${pdbPath}/guard`)).body.status;
        return st?.disruptionsAllowed === 1 && st;
      });
      assert.deepEqual([s.expectedPods, s.desiredHealthy, s.currentHealthy, s.observedGeneration], [3, 2, 3, 1]);
      assert.equal(s.conditions.find((c: any) => c.type === 'DisruptionAllowed').reason, 'SufficientPods');
      await setPodReady(api(), NS, names[0], false);
      await setPodReady(api(), NS, names[1], false);
      const after = await eventually('none allowed', async () => {
        const st = (await api().get(`${pdbPath}/guard`)).body.status;
        return st?.currentHealthy === 1 && st;
      });
      assert.equal(after.disruptionsAllowed, 0);
      assert.equal(after.conditions.find((c: any) => c.type === 'DisruptionAllowed').reason, 'InsufficientPods');
    });
  });

  describe('daemonset-controller', () => {
    const nodePods = async () =>
      ((await pods('app=agent')) as any[]).map(
        (p) => p.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0],
      );
    it('runs one Pod per eligible Node, following Nodes as they come, change and go', async () => {
      for (const [name, labels] of [
        ['worker-1', { pool: 'edge' }],
        ['worker-2', { pool: 'edge' }],
        ['control', { pool: 'core' }],
      ] as const) {
        const r = await api().post('/api/v1/nodes', { metadata: { name, labels } });
        assert.equal(r.status, 201, r.text);
      }
      const ds = await api().post(`/apis/apps/v1/namespaces/${NS}/daemonsets`, {
        metadata: { name: 'agent' },
        spec: {
          selector: { matchLabels: { app: 'agent' } },
          template: {
            metadata: { labels: { app: 'agent' } },
            spec: { nodeSelector: { pool: 'edge' }, containers: [{ name: 'c', image: 'agent:1' }] },
          },
        },
      });
      assert.equal(ds.status, 201, ds.text);
      await eventually(
        'Pods on worker-1 and worker-2',
        async () => JSON.stringify((await nodePods()).sort()) === '["worker-1","worker-2"]',
      );
      await api().patch('/api/v1/nodes/control', { metadata: { labels: { pool: 'edge' } } }, 'application/merge-patch+json');
      await eventually('a Pod on control too', async () => (await nodePods()).length === 3);
      assert.equal((await api().delete('/api/v1/nodes/worker-2')).status, 200);
      await eventually('worker-2’s Pod gone', async () => JSON.stringify((await nodePods()).sort()) === '["control","worker-1"]');
      // The ttl controller annotates every Node (0 s in a small cluster).
      await eventually(
        'the TTL annotation',
        async () => (await api().get('/api/v1/nodes/worker-1')).body.metadata.annotations?.['node.alpha.orch.io/ttl'] === '0',
      );
      await setPodsReady(api(), NS, 'app=agent');
      const status = await eventually('status', async () => {
        const s = (await api().get(`/apis/apps/v1/namespaces/${NS}/daemonsets/agent`)).body.status;
        return s?.numberReady === 2 && s;
      });
      assert.deepEqual(
        [status.desiredNumberScheduled, status.currentNumberScheduled, status.updatedNumberScheduled, status.numberAvailable],
        [2, 2, 2, 2],
      );
    });

    it('RollingUpdate with maxSurge starts the new Pod beside the old one and deletes the old one once the new one is ready', async () => {
      const path = `/apis/apps/v1/namespaces/${NS}/daemonsets/agent`;
      const before = (await pods('app=agent')).map((p) => p.metadata.name).sort();
      const patched = await api().patch(
        path,
        {
          spec: {
            updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
            template: { spec: { containers: [{ name: 'c', image: 'agent:2' }] } },
          },
        },
        'application/strategic-merge-patch+json',
      );
      assert.equal(patched.status, 200, patched.text);
      const surged = await eventually('one new Pod beside the old ones', async () => {
        const list = await pods('app=agent');
        return list.length === 3 && list;
      });
      assert.deepEqual(
        surged
          .filter((p) => p.spec.containers[0].image === 'agent:1')
          .map((p) => p.metadata.name)
          .sort(),
        before,
        'no old Pod goes before its replacement is ready',
      );
      await new Promise((r) => setTimeout(r, 500));
      assert.equal((await pods('app=agent')).length, 3, 'maxSurge 1: no second new Pod while the first is not ready');
      for (let i = 0; i < 100; i++) {
        await setPodsReady(api(), NS, 'app=agent');
        const list = (await pods('app=agent')).filter((p) => !p.metadata.deletionTimestamp);
        if (list.length === 2 && list.every((p) => p.spec.containers[0].image === 'agent:2')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const after = await eventually('both Nodes on agent:2', async () => {
        const s = (await api().get(path)).body.status;
        return s?.updatedNumberScheduled === 2 && s.numberAvailable === 2 && s;
      });
      assert.equal(after.desiredNumberScheduled, 2);
    });
  });

  describe('resourcequota-controller', () => {
    it('keeps status.used of a quota as Pods come and go', async () => {
      assert.equal((await api().post('/api/v1/namespaces', { metadata: { name: 'quota' } })).status, 201);
      const q = await api().post('/api/v1/namespaces/quota/resourcequotas', {
        metadata: { name: 'compute' },
        spec: { hard: { pods: '5', 'requests.cpu': '2', 'requests.memory': '1Gi', configmaps: '10' } },
      });
      assert.equal(q.status, 201, q.text);
      const used = async () => (await api().get('/api/v1/namespaces/quota/resourcequotas/compute')).body.status?.used;
      const initial = await eventually('an initial status', used);
      assert.equal(initial.pods, '0');
      for (const [name, cpu] of [
        ['a', '500m'],
        ['b', '250m'],
      ]) {
        const r = await api().post('/api/v1/namespaces/quota/pods', {
          metadata: { name },
          spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu, memory: '128Mi' } } }] },
        });
        assert.equal(r.status, 201, r.text);
      }
      const u = await eventually('2 Pods counted', async () => {
        const x = await used();
        return x?.pods === '2' && x;
      });
      assert.deepEqual(u, { pods: '2', 'requests.cpu': '750m', 'requests.memory': '256Mi', configmaps: u.configmaps });
      assert.equal((await api().delete('/api/v1/namespaces/quota/pods/a')).status, 200);
      await eventually('1 Pod counted', async () => (await used())?.['requests.cpu'] === '250m');
    });

    it('counts what a namespace held before its quota was created', async () => {
      assert.equal((await api().post('/api/v1/namespaces', { metadata: { name: 'quota-late' } })).status, 201);
      for (const name of ['one', 'two', 'three']) {
        assert.equal((await api().post('/api/v1/namespaces/quota-late/configmaps', { metadata: { name } })).status, 201);
      }
      const q = await api().post('/api/v1/namespaces/quota-late/resourcequotas', {
        metadata: { name: 'late' },
        spec: { hard: { configmaps: '3', 'count/configmaps': '10' } },
      });
      assert.equal(q.status, 201, q.text);
      const used = await eventually('the existing ConfigMaps counted', async () => {
        const u = (await api().get('/api/v1/namespaces/quota-late/resourcequotas/late')).body.status?.used;
        return u?.configmaps === '3' && u;
      });
      assert.deepEqual(used, { configmaps: '3', 'count/configmaps': '3' });
      // Admission now charges against the recalculated usage: the quota is full.
      const over = await api().post('/api/v1/namespaces/quota-late/configmaps', { metadata: { name: 'four' } });
      assert.equal(over.status, 403, over.text);
      assert.match(over.body.message, /exceeded quota: late, requested: configmaps=1, used: configmaps=3, limited: configmaps=3/);
    });
  });

  describe('statefulset-controller', () => {
    it('persistentVolumeClaimRetentionPolicy Delete: claims go with a scaled-away Pod and with the set', async () => {
      const created = await api().post(`/apis/apps/v1/namespaces/${NS}/statefulsets`, {
        metadata: { name: 'kept' },
        spec: {
          replicas: 2,
          serviceName: 'kept',
          podManagementPolicy: 'Parallel',
          persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' },
          selector: { matchLabels: { app: 'kept' } },
          template: { metadata: { labels: { app: 'kept' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
          volumeClaimTemplates: [
            { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
          ],
        },
      });
      assert.equal(created.status, 201, created.text);
      const uid = created.body.metadata.uid;
      const claims = `/api/v1/namespaces/${NS}/persistentvolumeclaims`;
      await eventually('both claims owned by the set', async () => {
        const list = (await api().get(`${claims}?labelSelector=app%3Dkept`)).body.items as any[];
        return (
          list.length === 2 && list.every((c) => c.metadata.ownerReferences?.some((r: any) => r.uid === uid && r.kind === 'StatefulSet'))
        );
      });
      await setPodsReady(api(), NS, 'app=kept');
      const path = `/apis/apps/v1/namespaces/${NS}/statefulsets/kept`;
      assert.equal((await api().patch(path, { spec: { replicas: 1 } }, 'application/merge-patch+json')).status, 200);
      await eventually('the claim of kept-1 deleted with its Pod', async () => (await api().get(`${claims}/data-kept-1`)).status === 404);
      assert.equal((await api().get(`${claims}/data-kept-0`)).status, 200, 'the claim of the remaining Pod stays');
      assert.equal((await api().delete(path)).status, 200);
      await eventually('the claim of kept-0 deleted with the set', async () => (await api().get(`${claims}/data-kept-0`)).status === 404);
    });

    it('the default Retain keeps claims after the set is gone', async () => {
      const created = await api().post(`/apis/apps/v1/namespaces/${NS}/statefulsets`, {
        metadata: { name: 'retained' },
        spec: {
          replicas: 1,
          serviceName: 'retained',
          selector: { matchLabels: { app: 'retained' } },
          template: { metadata: { labels: { app: 'retained' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
          volumeClaimTemplates: [
            { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
          ],
        },
      });
      assert.equal(created.status, 201, created.text);
      const claim = `/api/v1/namespaces/${NS}/persistentvolumeclaims/data-retained-0`;
      await eventually('the claim', async () => (await api().get(claim)).status === 200);
      assert.equal((await api().delete(`/apis/apps/v1/namespaces/${NS}/statefulsets/retained`)).status, 200);
      await eventually('the Pod gone', async () => (await pods('app=retained')).length === 0);
      await new Promise((r) => setTimeout(r, 1500));
      const kept = await api().get(claim);
      assert.equal(kept.status, 200);
      assert.deepEqual(kept.body.metadata.ownerReferences ?? [], []);
      // Left behind, it would bind the volume the protection test below expects unbound.
      assert.equal((await api().delete(claim)).status, 200);
      await eventually('the retained claim deleted', async () => (await api().get(claim)).status === 404);
    });
  });

  describe('pvc-protection and pv-protection controllers', () => {
    it('a claim in use outlives its deletion until its Pod is gone; a volume gets its finalizer', async () => {
      const claims = `/api/v1/namespaces/${NS}/persistentvolumeclaims`;
      const r = await api().post(claims, {
        metadata: { name: 'guarded' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      });
      assert.equal(r.status, 201, r.text);
      await eventually('the finalizer', async () =>
        (await api().get(`${claims}/guarded`)).body.metadata.finalizers?.includes('orch.io/pvc-protection'),
      );
      const pod = await api().post(`/api/v1/namespaces/${NS}/pods`, {
        metadata: { name: 'claimer' },
        spec: { containers: [{ name: 'c', image: 'nginx' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'guarded' } }] },
      });
      assert.equal(pod.status, 201, pod.text);
      assert.equal((await api().delete(`${claims}/guarded`)).status, 200);
      await new Promise((res) => setTimeout(res, 500));
      const terminating = (await api().get(`${claims}/guarded`)).body;
      assert.ok(terminating.metadata.deletionTimestamp, 'still there, being deleted');
      assert.equal((await api().delete(`/api/v1/namespaces/${NS}/pods/claimer`)).status, 200);
      await eventually('the claim gone', async () => (await api().get(`${claims}/guarded`)).status === 404);

      const pv = await api().post('/api/v1/persistentvolumes', {
        metadata: { name: 'vol-1' },
        spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/vol-1' } },
      });
      assert.equal(pv.status, 201, pv.text);
      await eventually('the PV finalizer', async () =>
        (await api().get('/api/v1/persistentvolumes/vol-1')).body.metadata.finalizers?.includes('orch.io/pv-protection'),
      );
      assert.equal((await api().delete('/api/v1/persistentvolumes/vol-1')).status, 200);
      await eventually('the unbound volume gone', async () => (await api().get('/api/v1/persistentvolumes/vol-1')).status === 404);
    });
  });

  describe('persistentvolume-binder-controller', () => {
    it('binds a claim to a matching volume, and releases the volume when the claim goes', async () => {
      for (const [name, size] of [
        ['pv-small', '1Gi'],
        ['pv-fit', '5Gi'],
      ]) {
        const r = await api().post('/api/v1/persistentvolumes', {
          metadata: { name },
          spec: { capacity: { storage: size }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/tmp/${name}` } },
        });
        assert.equal(r.status, 201, r.text);
      }
      const claims = `/api/v1/namespaces/${NS}/persistentvolumeclaims`;
      const c = await api().post(claims, {
        metadata: { name: 'wants-3g' },
        spec: { storageClassName: '', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '3Gi' } } },
      });
      assert.equal(c.status, 201, c.text);
      const bound = await eventually('the claim Bound', async () => {
        const x = (await api().get(`${claims}/wants-3g`)).body;
        return x.status?.phase === 'Bound' && x;
      });
      assert.equal(bound.spec.volumeName, 'pv-fit');
      assert.deepEqual(bound.status.capacity, { storage: '5Gi' });
      const vol = await eventually('the volume Bound', async () => {
        const x = (await api().get('/api/v1/persistentvolumes/pv-fit')).body;
        return x.status?.phase === 'Bound' && x;
      });
      assert.equal(vol.spec.claimRef.uid, c.body.metadata.uid);
      assert.equal((await api().get('/api/v1/persistentvolumes/pv-small')).body.status.phase, 'Available');
      assert.equal((await api().delete(`${claims}/wants-3g`)).status, 200);
      await eventually(
        'the volume Released',
        async () => (await api().get('/api/v1/persistentvolumes/pv-fit')).body.status?.phase === 'Released',
      );
    });

    it('dynamic provisioning: the claim is annotated for its class provisioner, and binds to the volume it makes', async () => {
      const classes = '/apis/storage.orch.io/v1/storageclasses';
      const sc = await api().post(classes, { metadata: { name: 'external' }, provisioner: 'csi.example.com' });
      assert.equal(sc.status, 201, sc.text);
      const claims = `/api/v1/namespaces/${NS}/persistentvolumeclaims`;
      const c = await api().post(claims, {
        metadata: { name: 'dynamic' },
        spec: { storageClassName: 'external', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } },
      });
      assert.equal(c.status, 201, c.text);
      const annotated = await eventually('the provisioner annotations', async () => {
        const x = (await api().get(`${claims}/dynamic`)).body;
        return x.metadata.annotations?.['volume.orch.io/storage-provisioner'] === 'csi.example.com' && x;
      });
      assert.equal(annotated.metadata.annotations['volume.beta.orch.io/storage-provisioner'], 'csi.example.com');
      assert.equal(annotated.status.phase, 'Pending');
      const events = await eventually('ExternalProvisioning', async () => {
        const list = (await api().get(`/apis/events.orch.io/v1/namespaces/${NS}/events`)).body.items as any[];
        return list.some((e) => e.regarding?.name === 'dynamic' && e.reason === 'ExternalProvisioning') && list;
      });
      assert.ok(events);
      // The test is the external provisioner: it creates the volume, pre-bound to the claim.
      const pv = await api().post('/api/v1/persistentvolumes', {
        metadata: { name: 'pvc-dynamic', annotations: { 'pv.orch.io/provisioned-by': 'csi.example.com' } },
        spec: {
          storageClassName: 'external',
          capacity: { storage: '2Gi' },
          accessModes: ['ReadWriteOnce'],
          persistentVolumeReclaimPolicy: 'Delete',
          csi: { driver: 'csi.example.com', volumeHandle: 'vol-1' },
          claimRef: { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace: NS, name: 'dynamic', uid: c.body.metadata.uid },
        },
      });
      assert.equal(pv.status, 201, pv.text);
      await eventually('the claim Bound to it', async () => {
        const x = (await api().get(`${claims}/dynamic`)).body;
        return x.status?.phase === 'Bound' && x.spec.volumeName === 'pvc-dynamic';
      });
    });

    it('WaitForFirstConsumer: the claim waits for a scheduled Pod before binding or provisioning', async () => {
      const sc = await api().post('/apis/storage.orch.io/v1/storageclasses', {
        metadata: { name: 'late' },
        provisioner: 'csi.example.com',
        volumeBindingMode: 'WaitForFirstConsumer',
      });
      assert.equal(sc.status, 201, sc.text);
      const claims = `/api/v1/namespaces/${NS}/persistentvolumeclaims`;
      assert.equal(
        (
          await api().post(claims, {
            metadata: { name: 'waits' },
            spec: { storageClassName: 'late', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          })
        ).status,
        201,
      );
      await eventually('WaitForFirstConsumer', async () => {
        const list = (await api().get(`/apis/events.orch.io/v1/namespaces/${NS}/events`)).body.items as any[];
        return list.some((e) => e.regarding?.name === 'waits' && e.reason === 'WaitForFirstConsumer');
      });
      assert.equal((await api().get(`${claims}/waits`)).body.metadata.annotations?.['volume.orch.io/storage-provisioner'], undefined);
      // The scheduler's choice starts provisioning.
      const chosen = await api().patch(
        `${claims}/waits`,
        { metadata: { annotations: { 'volume.orch.io/selected-node': 'node-1' } } },
        'application/merge-patch+json',
      );
      assert.equal(chosen.status, 200, chosen.text);
      await eventually(
        'the provisioner annotation',
        async () =>
          (await api().get(`${claims}/waits`)).body.metadata.annotations?.['volume.orch.io/storage-provisioner'] === 'csi.example.com',
      );
    });
  });
});
