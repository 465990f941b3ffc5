/**
 * The workload kinds over HTTP: Pods, apps/v1 (Deployment, ReplicaSet, StatefulSet, DaemonSet),
 * batch/v1 (Job, CronJob) and policy/v1 PodDisruptionBudget, with Kubernetes 1.28's defaults as
 * stored, each invalid case's status and causes, the update rules, generations and tables.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';
import type { TestClient } from '../../support/http-client.js';
import { TABLE } from '../../support/api-assertions.js';
import { newKubectl } from '../../support/kubectl.js';

const NS = 'wl';
const CORE = `/api/v1/namespaces/${NS}`;
const APPS = `/apis/apps/v1/namespaces/${NS}`;
const BATCH = `/apis/batch/v1/namespaces/${NS}`;
const POLICY = `/apis/policy/v1/namespaces/${NS}`;
const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';

const container = { name: 'app', image: 'nginx:1.25' };
const podTemplate = (labels: Record<string, string> = { app: 'web' }, restartPolicy?: string) => ({
  metadata: { labels },
  spec: { containers: [container], ...(restartPolicy ? { restartPolicy } : {}) },
});
const workload = (extra: Record<string, unknown> = {}) => ({
  selector: { matchLabels: { app: 'web' } },
  template: podTemplate(),
  ...extra,
});

/** The causes of a 422, as [field, message] pairs. */
function causes(body: any): [string, string][] {
  return body.details.causes.map((c: any) => [c.field, c.message]);
}

describe('workload kinds', () => {
  let s: TestServer;
  let c: TestClient;
  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createNamespace(c, NS);
    // The ServiceAccount admission plugin wants the account the service account controller would create.
    assert.equal((await c.post(`/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'default' } })).status, 201);
  });
  after(() => s?.stop());

  it('serves the kinds with their short names, categories and status subresources', async () => {
    const core = (await c.get('/api/v1')).body.resources;
    assert.deepEqual(
      core.find((r: any) => r.name === 'pods'),
      {
        name: 'pods',
        singularName: 'pod',
        namespaced: true,
        kind: 'Pod',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['po'],
        categories: ['all'],
        storageVersionHash: 'xPOwRZ+Yhw8=',
      },
    );
    assert.ok(core.find((r: any) => r.name === 'pods/status'));
    const apps = (await c.get('/apis/apps/v1')).body.resources;
    const short = (list: any[], name: string) => [
      list.find((r) => r.name === name)?.shortNames,
      list.find((r) => r.name === name)?.categories,
    ];
    assert.deepEqual(short(apps, 'deployments'), [['deploy'], ['all']]);
    assert.deepEqual(short(apps, 'replicasets'), [['rs'], ['all']]);
    assert.deepEqual(short(apps, 'statefulsets'), [['sts'], ['all']]);
    assert.deepEqual(short(apps, 'daemonsets'), [['ds'], ['all']]);
    for (const name of ['deployments', 'replicasets', 'statefulsets', 'daemonsets'])
      assert.ok(
        apps.find((r: any) => r.name === `${name}/status`),
        name,
      );
    const batch = (await c.get('/apis/batch/v1')).body.resources;
    assert.deepEqual(short(batch, 'jobs'), [undefined, ['all']]);
    assert.deepEqual(short(batch, 'cronjobs'), [['cj'], ['all']]);
    const policy = (await c.get('/apis/policy/v1')).body.resources;
    assert.deepEqual(short(policy, 'poddisruptionbudgets'), [['pdb'], undefined]);
  });

  describe('Pod', () => {
    it('stores the defaults of a minimal pod', async () => {
      const r = await c.post(`${CORE}/pods`, {
        metadata: { name: 'web' },
        spec: { containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 80 }] }] },
      });
      assert.equal(r.status, 201, r.text);
      const got = (await c.get(`${CORE}/pods/web`)).body;
      const tokenVolume = got.spec.volumes?.[0]?.name;
      assert.match(tokenVolume, /^orch-api-access-[a-z0-9]{5}$/);
      assert.deepEqual(got.spec, {
        containers: [
          {
            name: 'app',
            image: 'nginx',
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            imagePullPolicy: 'Always',
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            volumeMounts: [{ name: tokenVolume, readOnly: true, mountPath: '/var/run/secrets/orch.io/serviceaccount' }],
          },
        ],
        // ServiceAccount: the default account and its projected token.
        serviceAccountName: 'default',
        serviceAccount: 'default',
        volumes: [
          {
            name: tokenVolume,
            projected: {
              defaultMode: 420,
              sources: [
                { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
                { configMap: { name: 'orch-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
                { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
              ],
            },
          },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        securityContext: {},
        schedulerName: 'default-scheduler',
        enableServiceLinks: true,
        // The default admission plugins' part: Priority and DefaultTolerationSeconds.
        priority: 0,
        preemptionPolicy: 'PreemptLowerPriority',
        tolerations: [
          { key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
          { key: 'node.orch.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ],
      });
      assert.deepEqual(got.status, { phase: 'Pending', qosClass: 'BestEffort' });
      assert.equal(got.metadata.generation, undefined);
    });

    it('refuses invalid containers with one cause per problem', async () => {
      const r = await c.post(`${CORE}/pods`, {
        metadata: { name: 'bad' },
        spec: {
          restartPolicy: 'Sometimes',
          activeDeadlineSeconds: 0,
          containers: [
            {
              name: 'app',
              ports: [{ containerPort: 70000 }],
              volumeMounts: [{ name: 'nope', mountPath: '/x' }],
              resources: { requests: { cpu: '2' }, limits: { cpu: '1' } },
            },
            { name: 'app', image: 'x' },
          ],
        },
      });
      assert.equal(r.status, 422, r.text);
      assert.equal(r.body.reason, 'Invalid');
      assert.deepEqual(r.body.details.name, 'bad');
      assert.deepEqual(r.body.details.kind, 'Pod');
      assert.deepEqual(r.body.details.causes, [
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' },
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: 70000: must be between 1 and 65535, inclusive',
          field: 'spec.containers[0].ports[0].containerPort',
        },
        { reason: 'FieldValueNotFound', message: 'Not found: "nope"', field: 'spec.containers[0].volumeMounts[0].name' },
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "2": must be less than or equal to cpu limit of 1',
          field: 'spec.containers[0].resources.requests',
        },
        { reason: 'FieldValueDuplicate', message: 'Duplicate value: "app"', field: 'spec.containers[1].name' },
        {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
          field: 'spec.restartPolicy',
        },
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: 0: must be between 1 and 2147483647, inclusive',
          field: 'spec.activeDeadlineSeconds',
        },
      ]);
      assert.match(r.body.message, /^Pod "bad" is invalid: \[spec\.containers\[0\]\.image: Required value, /);
    });

    it('refuses invalid volumes', async () => {
      const r = await c.post(`${CORE}/pods`, {
        metadata: { name: 'vols' },
        spec: {
          containers: [container],
          volumes: [
            { name: 'two', emptyDir: {}, hostPath: { path: '/tmp' } },
            { name: 'mode', configMap: { name: 'cm', defaultMode: 1000, items: [{ key: 'k', path: '../escape' }] } },
            { name: 'claim', persistentVolumeClaim: {} },
            { name: 'two', emptyDir: {} },
          ],
        },
      });
      assert.equal(r.status, 422, r.text);
      assert.deepEqual(causes(r.body), [
        ['spec.volumes[0].hostPath', 'Forbidden: may not specify more than 1 volume type'],
        ['spec.volumes[1].configMap.defaultMode', 'Invalid value: 1000: must be a number between 0 and 0777 (octal), both inclusive'],
        ['spec.volumes[1].configMap.items[0].path', `Invalid value: "../escape": must not contain '..'`],
        ['spec.volumes[2].persistentVolumeClaim.claimName', 'Required value'],
      ]);
    });

    it('answers 400 for a malformed quantity', async () => {
      const r = await c.post(`${CORE}/pods`, {
        metadata: { name: 'q' },
        spec: { containers: [{ ...container, resources: { limits: { memory: '1 gig' } } }] },
      });
      assert.equal(r.status, 400);
      assert.equal(
        r.body.message,
        `Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
      );
    });

    it('accepts JSON numbers for quantities, as Kubernetes decodes them', async () => {
      const r = await c.post(`${CORE}/pods`, {
        metadata: { name: 'numeric' },
        spec: { containers: [{ ...container, resources: { limits: { cpu: 2, memory: 1073741824 }, requests: { cpu: 0.5 } } }] },
      });
      assert.equal(r.status, 201, r.text);
      // Requests default to the limits they do not set, as in Kubernetes.
      assert.deepEqual(r.body.spec.containers[0].resources, {
        limits: { cpu: '2', memory: '1073741824' },
        requests: { cpu: '500m', memory: '1073741824' },
      });
    });

    it('lets updates change images only (and a few more fields)', async () => {
      // A strategic merge keeps the container's other (defaulted) fields, as `kubectl set image` does.
      const image = await c.patch(`${CORE}/pods/web`, { spec: { containers: [{ name: 'app', image: 'nginx:1.26' }] } }, STRATEGIC);
      assert.equal(image.status, 200, image.text);
      assert.equal(image.body.spec.containers[0].image, 'nginx:1.26');
      const policy = await c.patch(`${CORE}/pods/web`, { spec: { restartPolicy: 'Never' } }, MERGE);
      assert.equal(policy.status, 422);
      assert.equal(policy.body.details.causes.length, 1);
      assert.equal(policy.body.details.causes[0].field, 'spec');
      assert.equal(policy.body.details.causes[0].reason, 'FieldValueForbidden');
      assert.ok(
        policy.body.details.causes[0].message.startsWith(
          'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n',
        ),
        policy.body.details.causes[0].message,
      );
    });

    it('takes status through /status, keeping the QoS class', async () => {
      const current = (await c.get(`${CORE}/pods/web`)).body;
      const r = await c.put(`${CORE}/pods/web/status`, {
        ...current,
        status: { phase: 'Running', podIPs: [{ ip: '10.1.0.7' }], podIP: '10.1.0.7' },
      });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.status, { phase: 'Running', podIPs: [{ ip: '10.1.0.7' }], podIP: '10.1.0.7', qosClass: 'BestEffort' });
      const byPhase = await c.get(`${CORE}/pods?fieldSelector=status.phase%3DRunning,spec.nodeName%3D`);
      assert.deepEqual(
        byPhase.body.items.map((p: any) => p.metadata.name),
        ['web'],
      );
    });

    it('prints the pod table kubectl shows', async () => {
      const r = await c.request('GET', `${CORE}/pods/web`, { headers: { Accept: TABLE } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        r.body.columnDefinitions.map((d: any) => [d.name, d.priority]),
        [
          ['Name', 0],
          ['Ready', 0],
          ['Status', 0],
          ['Restarts', 0],
          ['Age', 0],
          ['IP', 1],
          ['Node', 1],
          ['Nominated Node', 1],
          ['Readiness Gates', 1],
        ],
      );
      const [name, ready, phase, restarts, , ip, node] = r.body.rows[0].cells;
      assert.deepEqual([name, ready, phase, restarts, ip, node], ['web', '0/1', 'Running', '0', '10.1.0.7', '<none>']);
    });
  });

  describe('apps/v1', () => {
    it('stores a Deployment with its defaults and generation 1', async () => {
      const r = await c.post(`${APPS}/deployments`, { metadata: { name: 'web' }, spec: workload() });
      assert.equal(r.status, 201, r.text);
      const d = (await c.get(`${APPS}/deployments/web`)).body;
      assert.equal(d.metadata.generation, 1);
      assert.equal(d.spec.replicas, 1);
      assert.deepEqual(d.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
      assert.equal(d.spec.revisionHistoryLimit, 10);
      assert.equal(d.spec.progressDeadlineSeconds, 600);
      assert.equal(d.spec.template.spec.restartPolicy, 'Always');
      assert.equal(d.spec.template.spec.terminationGracePeriodSeconds, 30);
      assert.equal(d.spec.template.spec.containers[0].imagePullPolicy, 'IfNotPresent');
      assert.deepEqual(d.status, {});
    });

    it('bumps the generation on spec changes only, and keeps the selector', async () => {
      const scaled = await c.patch(`${APPS}/deployments/web`, { spec: { replicas: 3 } }, MERGE);
      assert.equal(scaled.status, 200, scaled.text);
      assert.equal(scaled.body.metadata.generation, 2);
      const labeled = await c.patch(`${APPS}/deployments/web`, { metadata: { labels: { team: 'a' } } }, MERGE);
      assert.equal(labeled.body.metadata.generation, 2);
      const moved = await c.patch(
        `${APPS}/deployments/web`,
        { spec: { selector: { matchLabels: { app: 'web', v: '2' } }, template: { metadata: { labels: { app: 'web', v: '2' } } } } },
        MERGE,
      );
      assert.equal(moved.status, 422);
      assert.deepEqual(moved.body.details.causes, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: {"matchLabels":{"app":"web","v":"2"}}: field is immutable',
          field: 'spec.selector',
        },
      ]);
    });

    it('refuses a selector that does not match the template, and invalid strategies', async () => {
      const r = await c.post(`${APPS}/deployments`, {
        metadata: { name: 'bad' },
        spec: workload({
          selector: { matchLabels: { app: 'db' } },
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } },
        }),
      });
      assert.equal(r.status, 422, r.text);
      assert.deepEqual(causes(r.body), [
        ['spec.template.metadata.labels', 'Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`'],
        ['spec.strategy.rollingUpdate.maxUnavailable', 'Invalid value: 0: may not be 0 when `maxSurge` is 0'],
      ]);
      const none = await c.post(`${APPS}/deployments`, { metadata: { name: 'bad' }, spec: { template: podTemplate() } });
      assert.deepEqual(causes(none.body)[0], ['spec.selector', 'Required value']);
    });

    it('prints the deployment table', async () => {
      const r = await c.request('GET', `${APPS}/deployments`, { headers: { Accept: TABLE } });
      assert.deepEqual(
        r.body.columnDefinitions.map((d: any) => d.name),
        ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector'],
      );
      const cells = r.body.rows[0].cells;
      assert.deepEqual(
        [cells[0], cells[1], cells[2], cells[3], cells[5], cells[6], cells[7]],
        ['web', '0/3', 0, 0, 'app', 'nginx:1.25', 'app=web'],
      );
    });

    it('stores a ReplicaSet and checks its status counters', async () => {
      const r = await c.post(`${APPS}/replicasets`, { metadata: { name: 'web' }, spec: workload() });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.spec.replicas, 1);
      assert.deepEqual(r.body.status, { replicas: 0 });
      const status = await c.put(`${APPS}/replicasets/web/status`, { ...r.body, status: { replicas: 1, readyReplicas: 2 } });
      assert.equal(status.status, 422);
      assert.deepEqual(causes(status.body), [['status.readyReplicas', 'Invalid value: 2: cannot be greater than status.replicas']]);
      const empty = await c.post(`${APPS}/replicasets`, { metadata: { name: 'e' }, spec: workload({ selector: {} }) });
      assert.deepEqual(causes(empty.body), [['spec.selector', 'Invalid value: {}: empty selector is invalid for deployment']]);
    });

    it('stores a StatefulSet with its defaults and forbids other spec changes', async () => {
      const spec = workload({
        serviceName: 'web',
        volumeClaimTemplates: [
          { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
        ],
      });
      (spec.template.spec.containers[0] as any) = { ...container, volumeMounts: [{ name: 'data', mountPath: '/data' }] };
      const r = await c.post(`${APPS}/statefulsets`, { metadata: { name: 'db' }, spec });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.spec.podManagementPolicy, 'OrderedReady');
      assert.deepEqual(r.body.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
      assert.deepEqual(r.body.spec.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
      assert.equal(r.body.spec.revisionHistoryLimit, 10);
      assert.equal(r.body.spec.volumeClaimTemplates[0].spec.volumeMode, 'Filesystem');
      const renamed = await c.patch(`${APPS}/statefulsets/db`, { spec: { serviceName: 'other' } }, MERGE);
      assert.equal(renamed.status, 422);
      assert.deepEqual(causes(renamed.body), [
        [
          'spec',
          "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
        ],
      ]);
      const dotted = await c.post(`${APPS}/statefulsets`, { metadata: { name: 'a.b' }, spec: workload({ podManagementPolicy: 'Random' }) });
      assert.deepEqual(causes(dotted.body), [
        ['metadata.name', 'Invalid value: "a.b": must not contain dots'],
        ['spec.podManagementPolicy', "Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'"],
      ]);
    });

    it('stores a DaemonSet with its defaults and template generation', async () => {
      const r = await c.post(`${APPS}/daemonsets`, { metadata: { name: 'agent' }, spec: workload() });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
      assert.equal(r.body.metadata.annotations['deprecated.daemonset.template.generation'], '1');
      const bumped = await c.patch(
        `${APPS}/daemonsets/agent`,
        { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.26' }] } } } },
        MERGE,
      );
      assert.equal(bumped.status, 200, bumped.text);
      assert.equal(bumped.body.metadata.annotations['deprecated.daemonset.template.generation'], '2');
      assert.equal(bumped.body.metadata.generation, 2);
      const bad = await c.post(`${APPS}/daemonsets`, {
        metadata: { name: 'bad' },
        spec: workload({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }),
      });
      assert.deepEqual(causes(bad.body), [
        ['spec.updateStrategy.rollingUpdate.maxUnavailable', 'Required value: cannot be 0 when maxSurge is 0'],
      ]);
    });
  });

  describe('batch/v1', () => {
    it('stores a Job with its defaults and a generated selector', async () => {
      const r = await c.post(`${BATCH}/jobs`, { metadata: { name: 'pi' }, spec: { template: podTemplate({ app: 'pi' }, 'Never') } });
      assert.equal(r.status, 201, r.text);
      const uid = r.body.metadata.uid;
      assert.equal(r.body.spec.completions, 1);
      assert.equal(r.body.spec.parallelism, 1);
      assert.equal(r.body.spec.backoffLimit, 6);
      assert.equal(r.body.spec.completionMode, 'NonIndexed');
      assert.equal(r.body.spec.suspend, false);
      // The labels defaulted from the template include the generated ones, as in Kubernetes (one shared map there).
      assert.deepEqual(r.body.metadata.labels, r.body.spec.template.metadata.labels);
      assert.deepEqual(r.body.spec.selector, { matchLabels: { 'batch.orch.io/controller-uid': uid } });
      assert.deepEqual(r.body.spec.template.metadata.labels, {
        app: 'pi',
        'job-name': 'pi',
        'batch.orch.io/job-name': 'pi',
        'controller-uid': uid,
        'batch.orch.io/controller-uid': uid,
      });
      const mine = await c.get(`${BATCH}/jobs?labelSelector=app%3Dpi`);
      assert.equal(mine.body.items.length, 1);
    });

    it('refuses pods that restart Always and template changes', async () => {
      const r = await c.post(`${BATCH}/jobs`, { metadata: { name: 'bad' }, spec: { template: podTemplate({}) } });
      assert.equal(r.status, 422);
      assert.deepEqual(causes(r.body), [['spec.template.spec.restartPolicy', 'Required value: valid values: "OnFailure", "Never"']]);
      const changed = await c.patch(`${BATCH}/jobs/pi`, { spec: { template: { spec: { activeDeadlineSeconds: 5 } } } }, MERGE);
      assert.equal(changed.status, 422);
      assert.equal(causes(changed.body)[0][0], 'spec.template');
      assert.match(causes(changed.body)[0][1], /: field is immutable$/);
    });

    it('stores a CronJob with its defaults and refuses bad schedules and time zones', async () => {
      const spec = { schedule: '*/5 * * * *', jobTemplate: { spec: { template: podTemplate({}, 'OnFailure') } } };
      const r = await c.post(`${BATCH}/cronjobs`, { metadata: { name: 'tick' }, spec });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.spec.concurrencyPolicy, 'Allow');
      assert.equal(r.body.spec.suspend, false);
      assert.equal(r.body.spec.successfulJobsHistoryLimit, 3);
      assert.equal(r.body.spec.failedJobsHistoryLimit, 1);
      assert.equal(r.body.metadata.generation, 1);
      const bad = await c.post(`${BATCH}/cronjobs`, {
        metadata: { name: 'bad' },
        spec: { ...spec, schedule: '0 0 31 2 8', timeZone: 'Atlantis/Capital' },
      });
      assert.equal(bad.status, 422);
      assert.deepEqual(causes(bad.body), [
        ['spec.schedule', 'Invalid value: "0 0 31 2 8": end of range (8) above maximum (6): 8'],
        ['spec.timeZone', 'Invalid value: "Atlantis/Capital": unknown time zone Atlantis/Capital'],
      ]);
      const table = await c.request('GET', `${BATCH}/cronjobs/tick`, { headers: { Accept: TABLE } });
      assert.deepEqual(
        table.body.columnDefinitions.map((d: any) => d.name),
        ['Name', 'Schedule', 'Suspend', 'Active', 'Last Schedule', 'Age', 'Containers', 'Images', 'Selector'],
      );
      assert.deepEqual(table.body.rows[0].cells.slice(0, 5), ['tick', '*/5 * * * *', 'False', 0, '<none>']);
    });
  });

  describe('policy/v1', () => {
    it('stores a PodDisruptionBudget as given and refuses both bounds', async () => {
      const r = await c.post(`${POLICY}/poddisruptionbudgets`, {
        metadata: { name: 'web' },
        spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
      });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body.spec, { minAvailable: 2, selector: { matchLabels: { app: 'web' } } });
      assert.equal(r.body.metadata.generation, 1);
      const both = await c.post(`${POLICY}/poddisruptionbudgets`, {
        metadata: { name: 'both' },
        spec: { minAvailable: 1, maxUnavailable: '10%' },
      });
      assert.equal(both.status, 422);
      assert.deepEqual(both.body.details.causes, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: {"minAvailable":1,"maxUnavailable":"10%"}: minAvailable and maxUnavailable cannot be both set',
          field: 'spec',
        },
      ]);
      const table = await c.request('GET', `${POLICY}/poddisruptionbudgets/web`, { headers: { Accept: TABLE } });
      assert.deepEqual(table.body.rows[0].cells.slice(0, 4), ['web', '2', 'N/A', 0]);
    });
  });

  describe('invalid updates', () => {
    it('are refused for every kind with the exact causes', async () => {
      const selector = {
        spec: { selector: { matchLabels: { app: 'web', v: '2' } }, template: { metadata: { labels: { app: 'web', v: '2' } } } },
      };
      const rs = await c.patch(`${APPS}/replicasets/web`, selector, MERGE);
      assert.equal(rs.status, 422);
      assert.deepEqual(causes(rs.body), [['spec.selector', 'Invalid value: {"matchLabels":{"app":"web","v":"2"}}: field is immutable']]);
      const ds = await c.patch(`${APPS}/daemonsets/agent`, { spec: { minReadySeconds: -1 } }, MERGE);
      assert.equal(ds.status, 422);
      assert.deepEqual(causes(ds.body), [['spec.minReadySeconds', 'Invalid value: -1: must be greater than or equal to 0']]);
      const cj = await c.patch(`${BATCH}/cronjobs/tick`, { spec: { schedule: '* * *', concurrencyPolicy: 'Sometimes' } }, MERGE);
      assert.equal(cj.status, 422);
      assert.deepEqual(causes(cj.body), [
        ['spec.schedule', 'Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]'],
        ['spec.concurrencyPolicy', 'Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"'],
      ]);
      const pdb = await c.patch(`${POLICY}/poddisruptionbudgets/web`, { spec: { maxUnavailable: '120%', minAvailable: null } }, MERGE);
      assert.equal(pdb.status, 422);
      assert.deepEqual(causes(pdb.body), [['spec.maxUnavailable', 'Invalid value: "120%": must not be greater than 100%']]);
      const fixed = await c.patch(`${POLICY}/poddisruptionbudgets/web`, { spec: { maxUnavailable: '20%', minAvailable: null } }, MERGE);
      assert.equal(fixed.status, 200, fixed.text);
      assert.equal(fixed.body.metadata.generation, 2);
    });
  });

  describe('scale subresource', () => {
    it('reads and writes Deployments, ReplicaSets and StatefulSets as autoscaling/v1 Scale', async () => {
      const d = await c.post(`${APPS}/deployments`, { metadata: { name: 'scaled' }, spec: workload({ replicas: 2 }) });
      assert.equal(d.status, 201, d.text);
      const scale = await c.get(`${APPS}/deployments/scaled/scale`);
      assert.equal(scale.status, 200, scale.text);
      assert.deepEqual(scale.body, {
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        metadata: {
          name: 'scaled',
          namespace: NS,
          uid: d.body.metadata.uid,
          resourceVersion: d.body.metadata.resourceVersion,
          creationTimestamp: d.body.metadata.creationTimestamp,
        },
        spec: { replicas: 2 },
        status: { replicas: 0, selector: 'app=web' },
      });
      const put = await c.put(`${APPS}/deployments/scaled/scale`, { ...scale.body, spec: { replicas: 3 } });
      assert.equal(put.status, 200, put.text);
      assert.equal(put.body.spec.replicas, 3);
      const stale = await c.put(`${APPS}/deployments/scaled/scale`, { ...scale.body, spec: { replicas: 4 } });
      assert.equal(stale.status, 409);
      const patch = await c.patch(`${APPS}/deployments/scaled/scale`, { spec: { replicas: 5 } }, MERGE);
      assert.equal(patch.status, 200, patch.text);
      const stored = (await c.get(`${APPS}/deployments/scaled`)).body;
      assert.equal(stored.spec.replicas, 5);
      assert.equal(stored.metadata.generation, 3);
      const negative = await c.patch(`${APPS}/deployments/scaled/scale`, { spec: { replicas: -1 } }, MERGE);
      assert.equal(negative.status, 422, negative.text);
      assert.equal(negative.body.details.causes[0].field, 'spec.replicas');
      const wrongKind = await c.put(`${APPS}/deployments/scaled/scale`, { ...stored, spec: { replicas: 1 } });
      assert.equal(wrongKind.status, 400);
      const rs = await c.post(`${APPS}/replicasets`, { metadata: { name: 'scaled-rs' }, spec: workload() });
      assert.equal(rs.status, 201, rs.text);
      assert.equal((await c.patch(`${APPS}/replicasets/scaled-rs/scale`, { spec: { replicas: 4 } }, MERGE)).body.spec.replicas, 4);
      assert.equal((await c.get(`${APPS}/daemonsets/any/scale`)).status, 404);
    });

    it('is in discovery with its own kind, and kubectl scale uses it', async () => {
      const resources = (await c.get('/apis/apps/v1')).body.resources;
      assert.deepEqual(
        resources.find((r: { name: string }) => r.name === 'deployments/scale'),
        {
          name: 'deployments/scale',
          singularName: '',
          namespaced: true,
          kind: 'Scale',
          group: 'autoscaling',
          version: 'v1',
          verbs: ['get', 'patch', 'update'],
        },
      );
      const k = newKubectl(s.kubeconfig);
      assert.match(await k.ok(['scale', '-n', NS, 'deployment/scaled', '--replicas=7']), /deployment.apps\/scaled scaled/);
      assert.equal((await c.get(`${APPS}/deployments/scaled`)).body.spec.replicas, 7);
    });
  });
});
