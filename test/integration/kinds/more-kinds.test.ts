/**
 * The kinds of issue 18 against a real server: ReplicationController (defaults, status, scale),
 * PodTemplate, ControllerRevision, HorizontalPodAutoscaler through autoscaling/v2 and v1 on one
 * storage, NetworkPolicy, ComponentStatus (read-only, deprecated) and Binding (pods/binding and the
 * legacy collection: once, then 409).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createDefaultServiceAccount, createNamespace } from '../../support/namespaces.js';
import type { TestClient } from '../../support/http-client.js';
import { firstTableRow, invalidCauses } from '../../support/api-assertions.js';

const NS = 'kinds';
const core = (resource: string, name = '') => `/api/v1/namespaces/${NS}/${resource}${name ? `/${name}` : ''}`;
const HPA2 = (name = '') => `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers${name ? `/${name}` : ''}`;
const HPA1 = (name = '') => `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers${name ? `/${name}` : ''}`;
const MERGE = 'application/merge-patch+json';

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } };

describe('issue 18 kinds', () => {
  let server: TestServer;
  let c: TestClient;

  before(async () => {
    server = await startTestServer();
    c = server.client;
    await createNamespace(c, NS);
    await createDefaultServiceAccount(c, NS);
  });
  after(() => server?.stop());

  it('ReplicationController: selector and labels from the template, replicas 1, status and scale', async () => {
    const r = await c.post(core('replicationcontrollers'), {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'rc' },
      spec: { template },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.spec.selector, { app: 'web' });
    assert.deepEqual(r.body.metadata.labels, { app: 'web' });
    assert.equal(r.body.spec.replicas, 1);
    assert.equal(r.body.metadata.generation, 1);
    assert.equal(r.body.spec.template.spec.restartPolicy, 'Always');

    const scale = await c.get(core('replicationcontrollers', 'rc/scale'));
    assert.equal(scale.status, 200, scale.text);
    assert.deepEqual(
      [scale.body.apiVersion, scale.body.kind, scale.body.spec, scale.body.status],
      ['autoscaling/v1', 'Scale', { replicas: 1 }, { replicas: 0, selector: 'app=web' }],
    );
    const scaled = await c.patch(core('replicationcontrollers', 'rc/scale'), { spec: { replicas: 3 } }, MERGE);
    assert.equal(scaled.status, 200, scaled.text);
    assert.equal((await c.get(core('replicationcontrollers', 'rc'))).body.spec.replicas, 3);

    const st = await c.patch(core('replicationcontrollers', 'rc/status'), { status: { replicas: 2, readyReplicas: 3 } }, MERGE);
    assert.equal(st.status, 422, st.text);
    assert.match(st.body.message, /status.readyReplicas: Invalid value: 3: cannot be greater than status.replicas/);

    const row = await firstTableRow(c, core('replicationcontrollers'));
    assert.deepEqual(row.columns, ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector']);
    assert.deepEqual(row.cells.slice(0, 4), ['rc', 3, 0, 0]);
    assert.deepEqual(row.cells.slice(5), ['app', 'nginx', 'app=web']);

    const causes = await invalidCauses(c, 'post', core('replicationcontrollers'), {
      metadata: { name: 'bad' },
      spec: { selector: { app: 'other' }, template: { ...template, spec: { ...template.spec, restartPolicy: 'Never' } } },
    });
    assert.deepEqual(
      causes.map((x) => x.field),
      ['spec.template.metadata.labels', 'spec.template.spec.restartPolicy'],
    );
  });

  it('PodTemplate and ControllerRevision', async () => {
    const pt = await c.post(core('podtemplates'), { metadata: { name: 'pt' }, template });
    assert.equal(pt.status, 201, pt.text);
    assert.equal(pt.body.template.spec.dnsPolicy, 'ClusterFirst');
    const row = await firstTableRow(c, core('podtemplates'));
    assert.deepEqual(row.columns, ['Name', 'Containers', 'Images', 'Pod Labels']);
    assert.deepEqual(row.cells, ['pt', 'app', 'nginx', 'app=web']);

    const CR = `/apis/apps/v1/namespaces/${NS}/controllerrevisions`;
    const owner = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'u-1', controller: true };
    const cr = await c.post(CR, { metadata: { name: 'db-1', ownerReferences: [owner] }, data: { spec: 1 }, revision: 2 });
    assert.equal(cr.status, 201, cr.text);
    const crRow = await firstTableRow(c, CR);
    assert.deepEqual(crRow.columns, ['Name', 'Controller', 'Revision', 'Age']);
    assert.deepEqual(crRow.cells.slice(0, 3), ['db-1', 'statefulset.apps/db', 2]);
    const changed = await c.patch(`${CR}/db-1`, { data: { spec: 2 } }, MERGE);
    assert.equal(changed.status, 422, changed.text);
    assert.match(changed.body.message, /data: Invalid value: .*field is immutable/);
    const missing = await invalidCauses(c, 'post', CR, { metadata: { name: 'db-2' }, revision: 1 });
    assert.deepEqual(missing, [{ reason: 'FieldValueRequired', message: 'Required value: data is mandatory', field: 'data' }]);
  });

  it('HorizontalPodAutoscaler: v1 and v2 are one storage, converted both ways without loss', async () => {
    const v1 = await c.post(HPA1(), {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5 },
    });
    assert.equal(v1.status, 201, v1.text);
    assert.deepEqual(v1.body.spec, {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 80,
    });
    assert.deepEqual(v1.body.status, { currentReplicas: 0, desiredReplicas: 0 });
    const v2 = await c.get(HPA2('web'));
    assert.equal(v2.status, 200, v2.text);
    assert.equal(v2.body.apiVersion, 'autoscaling/v2');
    assert.deepEqual(v2.body.spec.metrics, [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    ]);
    assert.equal(v2.body.metadata.resourceVersion, v1.body.metadata.resourceVersion);

    // A v2 object with what v1 cannot say reads back unchanged after a round trip through v1.
    const spec = {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' },
      minReplicas: 2,
      maxReplicas: 10,
      metrics: [
        { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '100' } } },
        { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
      ],
      behavior: { scaleDown: { stabilizationWindowSeconds: 60, policies: [{ type: 'Pods', value: 1, periodSeconds: 30 }] } },
    };
    const created = await c.post(HPA2(), { metadata: { name: 'api', annotations: { team: 'a' } }, spec });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.spec.behavior.scaleUp, {
      stabilizationWindowSeconds: 0,
      selectPolicy: 'Max',
      policies: [
        { type: 'Pods', value: 4, periodSeconds: 15 },
        { type: 'Percent', value: 100, periodSeconds: 15 },
      ],
    });
    const asV1 = await c.get(HPA1('api'));
    assert.equal(asV1.body.spec.targetCPUUtilizationPercentage, 60);
    assert.equal(asV1.body.metadata.annotations.team, 'a');
    assert.deepEqual(JSON.parse(asV1.body.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics']), [
      { type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '100' } },
      { type: 'Resource', resource: { name: 'memory', targetAverageValue: '500Mi' } },
    ]);
    // Writing the v1 form back (a label added) keeps every v2 field.
    const put = await c.put(HPA1('api'), { ...asV1.body, metadata: { ...asV1.body.metadata, labels: { tier: 'x' } } });
    assert.equal(put.status, 200, put.text);
    const back = await c.get(HPA2('api'));
    assert.deepEqual(back.body.spec.metrics, [...spec.metrics.slice(0, 2), spec.metrics[2]]);
    assert.deepEqual(back.body.spec.behavior, created.body.spec.behavior);
    assert.deepEqual(back.body.metadata.annotations, { team: 'a' });
    assert.deepEqual(back.body.metadata.labels, { tier: 'x' });

    const status = await c.patch(
      HPA2('api/status'),
      {
        status: {
          currentReplicas: 3,
          desiredReplicas: 4,
          currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 42, averageValue: '120m' } } }],
        },
      },
      MERGE,
    );
    assert.equal(status.status, 200, status.text);
    const v1Status = (await c.get(HPA1('api'))).body.status;
    assert.deepEqual(v1Status, { currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 42 });

    const row = await firstTableRow(c, `${HPA2()}?fieldSelector=metadata.name=api`);
    assert.deepEqual(row.columns, ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']);
    assert.deepEqual(row.cells.slice(0, 6), ['api', 'Deployment/api', '<unknown>/100, <unknown>/500Mi + 1 more...', '2', 10, 3]);

    const causes = await invalidCauses(c, 'post', HPA1(), {
      metadata: { name: 'bad' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' }, minReplicas: 3, maxReplicas: 2, targetCPUUtilizationPercentage: 0 },
    });
    assert.deepEqual(
      causes.map((x) => x.field),
      ['spec.maxReplicas', 'spec.metrics[0].resource.target.averageUtilization'],
    );
  });

  it('NetworkPolicy: defaults and validation', async () => {
    const NP = `/apis/networking.orch.io/v1/namespaces/${NS}/networkpolicies`;
    const np = await c.post(NP, {
      metadata: { name: 'np' },
      spec: { podSelector: { matchLabels: { app: 'web' } }, egress: [{ ports: [{ port: 53 }] }] },
    });
    assert.equal(np.status, 201, np.text);
    assert.deepEqual(np.body.spec.policyTypes, ['Ingress', 'Egress']);
    assert.deepEqual(np.body.spec.egress[0].ports[0], { protocol: 'TCP', port: 53 });
    const row = await firstTableRow(c, NP);
    assert.deepEqual(row.columns, ['Name', 'Pod-Selector', 'Age']);
    assert.deepEqual(row.cells.slice(0, 2), ['np', 'app=web']);
    const causes = await invalidCauses(c, 'post', NP, {
      metadata: { name: 'bad' },
      spec: {
        podSelector: {},
        ingress: [
          {
            from: [{}, { ipBlock: { cidr: '10.0.0.0/8', except: ['11.0.0.0/16'] }, podSelector: {} }],
            ports: [{ port: 'http', endPort: 90 }],
          },
        ],
        policyTypes: ['Sideways'],
      },
    });
    assert.deepEqual(
      causes.map((x) => `${x.field}: ${x.message}`),
      [
        'spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
        'spec.ingress[0].from[0]: Required value: must specify a peer',
        'spec.ingress[0].from[1].ipBlock.except[0]: Invalid value: "11.0.0.0/16": must be a strict subset of `cidr`',
        'spec.ingress[0].from[1]: Forbidden: may not specify both ipBlock and another peer',
        'spec.policyTypes[0]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"',
      ],
    );
  });

  it('ComponentStatus: read-only, made on read, with the deprecation Warning', async () => {
    const r = await c.get('/api/v1/componentstatuses');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers.warning, '299 - "v1 ComponentStatus is deprecated in v1.19+"');
    assert.equal(r.body.kind, 'ComponentStatusList');
    const etcd = r.body.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'etcd-0');
    assert.deepEqual(etcd.conditions, [{ type: 'Healthy', status: 'True', message: 'ok' }]);
    assert.equal((await c.get('/api/v1/componentstatuses/etcd-0')).body.kind, 'ComponentStatus');
    assert.equal((await c.get('/api/v1/componentstatuses/nope')).status, 404);
    assert.equal((await c.post('/api/v1/componentstatuses', { metadata: { name: 'x' } })).status, 405);
    assert.equal((await c.delete('/api/v1/componentstatuses/etcd-0')).status, 405);
    const row = await firstTableRow(c, '/api/v1/componentstatuses/etcd-0');
    assert.deepEqual(row.columns, ['Name', 'Status', 'Message', 'Error']);
    assert.deepEqual(row.cells, ['etcd-0', 'Healthy', 'ok', '']);
  });

  it('Binding: pods/binding and the bindings collection set spec.nodeName once, then 409', async () => {
    for (const name of ['b1', 'b2']) {
      const p = await c.post(core('pods'), { metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx' }] } });
      assert.equal(p.status, 201, p.text);
    }
    const bind = (name: string, node: string) => ({
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name, annotations: { by: 'test' } },
      target: { kind: 'Node', name: node },
    });
    const r = await c.post(core('pods', 'b1/binding'), bind('b1', 'node-a'));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const pod = (await c.get(core('pods', 'b1'))).body;
    assert.equal(pod.spec.nodeName, 'node-a');
    assert.equal(pod.metadata.annotations.by, 'test');
    assert.equal(pod.status.conditions.find((x: { type: string }) => x.type === 'PodScheduled').status, 'True');

    const again = await c.post(core('pods', 'b1/binding'), bind('b1', 'node-b'));
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.message, 'Operation cannot be fulfilled on pods/binding "b1": pod b1 is already assigned to node "node-a"');

    const legacy = await c.post(core('bindings'), bind('b2', 'node-b'));
    assert.equal(legacy.status, 201, legacy.text);
    assert.equal((await c.get(core('pods', 'b2'))).body.spec.nodeName, 'node-b');
    assert.equal((await c.post(core('bindings'), bind('b2', 'node-c'))).status, 409);

    assert.equal((await c.post(core('pods', 'nope/binding'), bind('nope', 'n'))).status, 404);
    assert.equal((await c.post(core('pods', 'b1/binding'), bind('other', 'n'))).status, 400);
    const noTarget = await c.post(core('pods', 'b1/binding'), { metadata: { name: 'b1' }, target: { kind: 'Pod', name: '' } });
    assert.equal(noTarget.status, 422, noTarget.text);
    assert.equal((await c.get(core('bindings'))).status, 405);
    assert.equal((await c.get(core('pods', 'b1/binding'))).status, 405);
  });

  it('discovery lists the new resources with Kubernetes fields in order', async () => {
    const v1 = (await c.get('/api/v1')).body.resources as Record<string, unknown>[];
    const byName = (n: string) => v1.find((r) => r.name === n);
    assert.deepEqual(byName('pods/binding'), {
      name: 'pods/binding',
      singularName: '',
      namespaced: true,
      kind: 'Binding',
      verbs: ['create'],
    });
    assert.deepEqual(Object.keys(byName('replicationcontrollers')!), [
      'name',
      'singularName',
      'namespaced',
      'kind',
      'verbs',
      'shortNames',
      'categories',
      'storageVersionHash',
    ]);
    assert.equal(byName('pods')!.storageVersionHash, 'xPOwRZ+Yhw8=');
    assert.deepEqual(byName('componentstatuses'), {
      name: 'componentstatuses',
      singularName: 'componentstatus',
      namespaced: false,
      kind: 'ComponentStatus',
      verbs: ['get', 'list'],
      shortNames: ['cs'],
    });
    const names = v1.map((r) => r.name as string);
    assert.deepEqual(names, [...names].sort());
    const autoscaling = (await c.get('/apis/autoscaling')).body;
    assert.deepEqual(autoscaling.preferredVersion, { groupVersion: 'autoscaling/v2', version: 'v2' });
    const h1 = (await c.get('/apis/autoscaling/v1')).body.resources[0];
    const h2 = (await c.get('/apis/autoscaling/v2')).body.resources[0];
    assert.equal(h1.storageVersionHash, h2.storageVersionHash);
    assert.equal(h2.storageVersionHash, 'qwQve8ut294=');
  });
});
