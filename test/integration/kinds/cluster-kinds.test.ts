/**
 * Cluster kinds over HTTP: Node, LimitRange, ResourceQuota (core), PriorityClass (scheduling.orch.io),
 * RuntimeClass (node.orch.io) and Lease (coordination.orch.io) with Kubernetes' defaults as stored, each
 * invalid case's 422 causes, each immutability rule on update, status subresources and tables.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';
import type { TestClient } from '../../support/http-client.js';
import { invalidCauses, firstTableRow } from '../../support/api-assertions.js';

const NODES = '/api/v1/nodes';
const LIMITS = '/api/v1/namespaces/cluster/limitranges';
const QUOTAS = '/api/v1/namespaces/cluster/resourcequotas';
const PCS = '/apis/scheduling.orch.io/v1/priorityclasses';
const RCS = '/apis/node.orch.io/v1/runtimeclasses';
const LEASES = '/apis/coordination.orch.io/v1/namespaces/cluster/leases';

describe('cluster kinds', () => {
  let s: TestServer;
  let c: TestClient;

  const causes = (method: 'post' | 'put', path: string, body: unknown) => invalidCauses(c, method, path, body);

  const table = (path: string) => firstTableRow(c, path);

  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createNamespace(c, 'cluster');
  });
  after(() => s?.stop());

  describe('Node', () => {
    it('is served as no, cluster-scoped, with a status subresource', async () => {
      const resources = (await c.get('/api/v1')).body.resources;
      const node = resources.find((x: { name: string }) => x.name === 'nodes');
      assert.deepEqual([node.namespaced, node.shortNames], [false, ['no']]);
      assert.ok(resources.some((x: { name: string }) => x.name === 'nodes/status'));
    });

    it('checks taints (reported under metadata.taints) and pod CIDRs', async () => {
      assert.deepEqual(
        await causes('post', NODES, {
          metadata: { name: 'bad' },
          spec: {
            taints: [
              { key: 'dedicated', value: 'a b', effect: 'Sometimes' },
              { key: 'gpu', effect: '' },
              { key: 'gpu', effect: 'NoSchedule' },
              { key: 'gpu', effect: 'NoSchedule' },
            ],
            podCIDRs: ['10.0.0.0/24', '10.1.0.0/24', 'nope'],
          },
        }),
        [
          {
            reason: 'FieldValueInvalid',
            message:
              "Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
            field: 'metadata.taints[0].value',
          },
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
            field: 'metadata.taints[0].effect',
          },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'metadata.taints[1].effect' },
          {
            reason: 'FieldValueDuplicate',
            message: 'Duplicate value: {"key":"gpu","effect":"NoSchedule"}: taints must be unique by key and effect pair',
            field: 'metadata.taints[3]',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: []string{"10.0.0.0/24", "10.1.0.0/24", "nope"}: must be valid CIDR',
            field: 'spec.podCIDRs[2]',
          },
          {
            reason: 'InternalError',
            message:
              'Internal error: invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[2]: <nil> (invalid CIDR address: nope)',
            field: 'spec.podCIDRs',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: []string{"10.0.0.0/24", "10.1.0.0/24", "nope"}: may specify no more than one CIDR for each IP family',
            field: 'spec.podCIDRs',
          },
        ],
      );
      assert.deepEqual(await causes('post', NODES, { metadata: { name: 'dup' }, spec: { podCIDRs: ['fd00::/64', 'fd00::/64'] } }), [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: []string{"fd00::/64", "fd00::/64"}: may specify no more than one CIDR for each IP family',
          field: 'spec.podCIDRs',
        },
        { reason: 'FieldValueDuplicate', message: 'Duplicate value: "fd00::/64"', field: 'spec.podCIDRs[1]' },
      ]);
    });

    it('fixes podCIDRs and providerID once set, and externalID always; drops the deprecated configSource', async () => {
      const created = await c.post(NODES, {
        metadata: { name: 'node-1', labels: { 'node-role.orch.io/control-plane': '' } },
        spec: { podCIDRs: ['10.0.0.0/24', 'fd00::/64'], configSource: { configMap: { namespace: 'x', name: 'y', kubeletConfigKey: 'k' } } },
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.spec.configSource, undefined);
      const cur = created.body;
      assert.deepEqual(
        await causes('put', `${NODES}/node-1`, { ...cur, spec: { podCIDRs: ['10.0.1.0/24', 'fd00::/64'], externalID: 'ext' } }),
        [
          {
            reason: 'FieldValueForbidden',
            message: 'Forbidden: node updates may not change podCIDR except from "" to valid',
            field: 'spec.podCIDRs',
          },
          { reason: 'FieldValueForbidden', message: 'Forbidden: may not be updated', field: 'spec.externalID' },
        ],
      );
      const provider = await c.put(`${NODES}/node-1`, { ...cur, spec: { ...cur.spec, providerID: 'cloud://1', unschedulable: true } });
      assert.equal(provider.status, 200, provider.text);
      assert.deepEqual(
        await causes('put', `${NODES}/node-1`, { ...provider.body, spec: { ...provider.body.spec, providerID: 'cloud://2' } }),
        [
          {
            reason: 'FieldValueForbidden',
            message: 'Forbidden: node updates may not change providerID except from "" to valid',
            field: 'spec.providerID',
          },
        ],
      );
    });

    it('keeps the status a node registers with', async () => {
      const r = await c.post(NODES, {
        metadata: { name: 'node-registered' },
        status: { capacity: { pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }] },
      });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body.status.capacity, { pods: '110' });
      assert.equal(r.body.status.conditions[0].type, 'Ready');
      const update = await c.put(`${NODES}/node-registered`, { ...r.body, status: { capacity: { pods: '1' } } });
      assert.deepEqual(update.body.status.capacity, { pods: '110' }, 'main-resource updates still keep the stored status');
      assert.equal((await c.delete(`${NODES}/node-registered`)).status, 200);
    });

    it('takes status through /status: allocatable defaults to capacity, quantities and addresses are checked', async () => {
      const cur = (await c.get(`${NODES}/node-1`)).body;
      const status = {
        capacity: { cpu: '4', memory: '8Gi', pods: '110' },
        conditions: [{ type: 'Ready', status: 'True' }],
        addresses: [{ type: 'InternalIP', address: '10.0.0.5' }],
        nodeInfo: {
          kubeletVersion: 'v1.28.0',
          osImage: 'Debian',
          kernelVersion: '6.1',
          containerRuntimeVersion: 'containerd://1.7',
          machineID: '',
          systemUUID: '',
          bootID: '',
          kubeProxyVersion: '',
          operatingSystem: 'linux',
          architecture: 'amd64',
        },
      };
      const r = await c.put(`${NODES}/node-1/status`, { ...cur, spec: { unschedulable: false }, status });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.status.allocatable, { cpu: '4', memory: '8Gi', pods: '110' });
      assert.equal(r.body.spec.unschedulable, true);
      assert.deepEqual(
        await causes('put', `${NODES}/node-1/status`, {
          ...r.body,
          status: { ...status, capacity: { cpu: '-1', pods: '1.5' }, addresses: [status.addresses[0], status.addresses[0]] },
        }),
        [
          { reason: 'FieldValueInvalid', message: 'Invalid value: "-1": must be greater than or equal to 0', field: 'status.capacity.cpu' },
          { reason: 'FieldValueInvalid', message: 'Invalid value: "1500m": must be an integer', field: 'status.capacity.pods' },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "-1": must be greater than or equal to 0',
            field: 'status.allocatable.cpu',
          },
          { reason: 'FieldValueInvalid', message: 'Invalid value: "1500m": must be an integer', field: 'status.allocatable.pods' },
          {
            reason: 'FieldValueDuplicate',
            message: 'Duplicate value: {"type":"InternalIP","address":"10.0.0.5"}',
            field: 'status.addresses[1]',
          },
        ],
      );
    });

    it('prints kubectl’s columns and selects by spec.unschedulable', async () => {
      const t = await table(`${NODES}/node-1`);
      assert.deepEqual(t.columns, [
        'Name',
        'Status',
        'Roles',
        'Age',
        'Version',
        'Internal-IP',
        'External-IP',
        'OS-Image',
        'Kernel-Version',
        'Container-Runtime',
      ]);
      assert.deepEqual(
        [...t.cells.slice(0, 3), ...t.cells.slice(4)],
        ['node-1', 'Ready,SchedulingDisabled', 'control-plane', 'v1.28.0', '10.0.0.5', '<none>', 'Debian', '6.1', 'containerd://1.7'],
      );
      const cordoned = await c.get(`${NODES}?fieldSelector=spec.unschedulable%3Dtrue`);
      assert.deepEqual(
        cordoned.body.items.map((n: { metadata: { name: string } }) => n.metadata.name),
        ['node-1'],
      );
      assert.equal((await c.get(`${NODES}?fieldSelector=spec.unschedulable%3Dfalse`)).body.items.length, 0);
    });
  });

  describe('LimitRange', () => {
    it('defaults container limits from max and requests from the default limit or min', async () => {
      const r = await c.post(LIMITS, {
        metadata: { name: 'limits' },
        spec: {
          limits: [
            { type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '100m', memory: '100Mi' }, default: { memory: '512Mi' } },
          ],
        },
      });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body.spec.limits[0].default, { memory: '512Mi', cpu: '2' });
      assert.deepEqual(r.body.spec.limits[0].defaultRequest, { memory: '512Mi', cpu: '2' });
      const t = await table(`${LIMITS}/limits`);
      assert.deepEqual(t.columns, ['Name', 'Created At']);
    });

    it('checks types, names and the min ≤ defaultRequest ≤ default ≤ max order', async () => {
      assert.deepEqual(
        await causes('post', LIMITS, {
          metadata: { name: 'bad' },
          spec: {
            limits: [
              { type: 'Container', max: { cpu: '1' }, min: { cpu: '2' }, default: { cpu: '1500m' }, defaultRequest: { cpu: '500m' } },
              { type: 'Pod', default: { cpu: '1' }, maxLimitRequestRatio: { cpu: '500m', storage: '1' } },
              { type: 'PersistentVolumeClaim' },
              { type: 'Pod' },
              { type: 'Volume' },
            ],
          },
        }),
        [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "2": min value 2 is greater than max value 1',
            field: 'spec.limits[0].min[cpu]',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "500m": min value 2 is greater than default request value 500m',
            field: 'spec.limits[0].defaultRequest[cpu]',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "2": min value 2 is greater than default value 1500m',
            field: 'spec.limits[0].default[cpu]',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "1": default value 1500m is greater than max value 1',
            field: 'spec.limits[0].default[cpu]',
          },
          {
            reason: 'FieldValueForbidden',
            message: "Forbidden: may not be specified when `type` is 'Pod'",
            field: 'spec.limits[1].default',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "storage": must be a standard resource for containers',
            field: 'spec.limits[1].maxLimitRequestRatio[storage]',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "500m": ratio 500m is less than 1',
            field: 'spec.limits[1].maxLimitRequestRatio[cpu]',
          },
          {
            reason: 'FieldValueRequired',
            message: 'Required value: either minimum or maximum storage value is required, but neither was provided',
            field: 'spec.limits[2].limits',
          },
          { reason: 'FieldValueDuplicate', message: 'Duplicate value: "Pod"', field: 'spec.limits[3].type' },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "Volume": must be a standard limit type or fully qualified',
            field: 'spec.limits[4].type',
          },
        ],
      );
    });

    it('bounds maxLimitRequestRatio by max/min', async () => {
      assert.deepEqual(
        await causes('post', LIMITS, {
          metadata: { name: 'ratio' },
          spec: { limits: [{ type: 'Pod', min: { memory: '1Gi' }, max: { memory: '3Gi' }, maxLimitRequestRatio: { memory: '4' } }] },
        }),
        [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "4": ratio 4 is greater than max/min = 3.000000',
            field: 'spec.limits[0].maxLimitRequestRatio[memory]',
          },
        ],
      );
    });
  });

  describe('ResourceQuota', () => {
    it('starts with an empty status and prints used/hard from it', async () => {
      const r = await c.post(QUOTAS, {
        metadata: { name: 'quota' },
        spec: { hard: { pods: '10', 'requests.cpu': '4', 'limits.memory': '8Gi' } },
      });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body.status, {});
      const st = await c.put(`${QUOTAS}/quota/status`, {
        ...r.body,
        status: { hard: { pods: '10', 'requests.cpu': '4', 'limits.memory': '8Gi' }, used: { pods: '2', 'requests.cpu': '500m' } },
      });
      assert.equal(st.status, 200, st.text);
      const t = await table(`${QUOTAS}/quota`);
      assert.deepEqual(t.columns, ['Name', 'Age', 'Request', 'Limit']);
      assert.deepEqual([t.cells[0], t.cells[2], t.cells[3]], ['quota', 'pods: 2/10, requests.cpu: 500m/4', 'limits.memory: 0/8Gi']);
    });

    it('checks hard resource names and quantities, scopes and scope selectors', async () => {
      assert.deepEqual(
        await causes('post', QUOTAS, {
          metadata: { name: 'bad' },
          spec: { hard: { storage: '1Gi', pods: '1.5', cpu: '-1' }, scopes: ['BestEffort', 'NotBestEffort', 'Sometimes'] },
        }),
        [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "storage": must be a standard resource for quota',
            field: 'spec.hard[storage]',
          },
          { reason: 'FieldValueInvalid', message: 'Invalid value: "1500m": must be an integer', field: 'spec.hard[pods]' },
          { reason: 'FieldValueInvalid', message: 'Invalid value: "-1": must be greater than or equal to 0', field: 'spec.hard[cpu]' },
          {
            reason: 'FieldValueInvalid',
            message:
              'Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort", "Sometimes"}: unsupported scope applied to resource',
            field: 'spec.scopes',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort", "Sometimes"}: unsupported scope',
            field: 'spec.scopes',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort", "Sometimes"}: conflicting scopes',
            field: 'spec.scopes',
          },
        ],
      );
      assert.deepEqual(
        await causes('post', QUOTAS, {
          metadata: { name: 'selector' },
          spec: {
            hard: { pods: '1' },
            scopeSelector: {
              matchExpressions: [
                { scopeName: 'Terminating', operator: 'In', values: [] },
                { scopeName: 'PriorityClass', operator: 'Exists', values: ['high'] },
              ],
            },
          },
        }),
        [
          {
            reason: 'FieldValueInvalid',
            message:
              'Invalid value: "In": must be \'Exist\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity',
            field: 'spec.scopeSelector.matchExpressions.operator',
          },
          {
            reason: 'FieldValueRequired',
            message: "Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
            field: 'spec.scopeSelector.matchExpressions.values',
          },
          {
            reason: 'FieldValueInvalid',
            message: "Invalid value: []string{\"high\"}: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
            field: 'spec.scopeSelector.matchExpressions.values',
          },
        ],
      );
    });

    it('keeps scopes immutable and checks status through /status', async () => {
      const created = (await c.post(QUOTAS, { metadata: { name: 'scoped' }, spec: { hard: { pods: '5' }, scopes: ['NotTerminating'] } }))
        .body;
      assert.deepEqual(await causes('put', `${QUOTAS}/scoped`, { ...created, spec: { hard: { pods: '6' }, scopes: ['Terminating'] } }), [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: []core.ResourceQuotaScope{"Terminating"}: field is immutable',
          field: 'spec.scopes',
        },
      ]);
      assert.deepEqual(await causes('put', `${QUOTAS}/scoped/status`, { ...created, status: { used: { pods: '-2' } } }), [
        { reason: 'FieldValueInvalid', message: 'Invalid value: "-2": must be greater than or equal to 0', field: 'status.used[pods]' },
      ]);
    });
  });

  describe('PriorityClass', () => {
    it('keeps a description, a field strict field validation knows', async () => {
      const r = await c.post(`${PCS}?fieldValidation=Strict`, { metadata: { name: 'described' }, value: 5, description: 'batch work' });
      assert.equal(r.status, 201, r.text);
      assert.equal((await c.get(`${PCS}/described`)).body.description, 'batch work');
      assert.equal((await c.delete(`${PCS}/described`)).status, 200);
    });

    it('defaults preemptionPolicy, caps user values and reserves system- names', async () => {
      const r = await c.post(PCS, { metadata: { name: 'high' }, value: 1000, globalDefault: false });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.preemptionPolicy, 'PreemptLowerPriority');
      const t = await table(`${PCS}/high`);
      assert.deepEqual(
        [t.columns, t.cells.slice(0, 3)],
        [
          ['Name', 'Value', 'Global-Default', 'Age'],
          ['high', 1000, false],
        ],
      );
      assert.deepEqual(await causes('post', PCS, { metadata: { name: 'huge' }, value: 1000000001, preemptionPolicy: 'Always' }), [
        {
          reason: 'FieldValueForbidden',
          message: 'Forbidden: maximum allowed value of a user defined priority is 1000000000',
          field: 'value',
        },
        {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: "Always": supported values: "PreemptLowerPriority", "Never"',
          field: 'preemptionPolicy',
        },
      ]);
      assert.deepEqual(await causes('post', PCS, { metadata: { name: 'system-mine' }, value: 1 }), [
        {
          reason: 'FieldValueForbidden',
          message:
            "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
          field: 'metadata.name',
        },
      ]);
      assert.deepEqual(await causes('post', PCS, { metadata: { name: 'system-node-critical' }, value: 1 }), [
        {
          reason: 'FieldValueForbidden',
          message:
            "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000",
          field: 'metadata.name',
        },
      ]);
      // The built-in system classes exist from the start; their exact values are accepted by validation.
      assert.equal((await c.get(`${PCS}/system-cluster-critical`)).body.value, 2000000000);
      assert.equal((await c.post(PCS, { metadata: { name: 'system-cluster-critical' }, value: 2000000000 })).status, 409);
    });

    it('keeps value and preemptionPolicy immutable', async () => {
      const cur = (await c.get(`${PCS}/high`)).body;
      assert.deepEqual(await causes('put', `${PCS}/high`, { ...cur, value: 2000, preemptionPolicy: 'Never' }), [
        { reason: 'FieldValueForbidden', message: 'Forbidden: may not be changed in an update.', field: 'value' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: "Never": field is immutable', field: 'preemptionPolicy' },
      ]);
      assert.equal((await c.put(`${PCS}/high`, { ...cur, description: 'important', globalDefault: true })).status, 200);
    });
  });

  describe('RuntimeClass', () => {
    it('checks the handler, the overhead and scheduling, and keeps the handler', async () => {
      assert.deepEqual(
        await causes('post', RCS, {
          metadata: { name: 'bad' },
          handler: 'Run_C',
          overhead: { podFixed: { storage: '1Gi', 'hugepages-2Mi': '3Mi' } },
          scheduling: {
            nodeSelector: { 'bad key': 'x' },
            tolerations: [
              { key: 'a', operator: 'Exists', value: 'v' },
              { operator: 'Equal' },
              { key: 'a', operator: 'Exists', value: 'v' },
            ],
          },
        }),
        [
          {
            reason: 'FieldValueInvalid',
            message:
              "Invalid value: \"Run_C\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
            field: 'handler',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "storage": must be a standard resource for containers',
            field: 'overhead.limits[storage]',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
            field: 'overhead.limits[hugepages-2Mi]',
          },
          { reason: 'FieldValueForbidden', message: 'Forbidden: HugePages require cpu or memory', field: 'overhead' },
          {
            reason: 'FieldValueInvalid',
            message:
              "Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            field: 'scheduling.nodeSelector',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "v": value must be empty when `operator` is \'Exists\'',
            field: 'scheduling.tolerations.tolerations[0].operator',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
            field: 'scheduling.tolerations.tolerations[1].operator',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "v": value must be empty when `operator` is \'Exists\'',
            field: 'scheduling.tolerations.tolerations[2].operator',
          },
          {
            reason: 'FieldValueDuplicate',
            message: 'Duplicate value: {"key":"a","operator":"Exists","value":"v"}',
            field: 'scheduling.tolerations[2]',
          },
        ],
      );
      const r = await c.post(RCS, {
        metadata: { name: 'gvisor' },
        handler: 'runsc',
        overhead: { podFixed: { cpu: '250m', memory: '64Mi' } },
      });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(await causes('put', `${RCS}/gvisor`, { ...r.body, handler: 'kata' }), [
        { reason: 'FieldValueInvalid', message: 'Invalid value: "kata": field is immutable', field: 'handler' },
      ]);
      const t = await table(`${RCS}/gvisor`);
      assert.deepEqual(
        [t.columns, t.cells.slice(0, 2)],
        [
          ['Name', 'Handler', 'Age'],
          ['gvisor', 'runsc'],
        ],
      );
    });
  });

  describe('Lease', () => {
    it('needs a positive duration and non-negative transitions, on create and update', async () => {
      assert.deepEqual(
        await causes('post', LEASES, { metadata: { name: 'bad' }, spec: { leaseDurationSeconds: 0, leaseTransitions: -1 } }),
        [
          { reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be greater than 0', field: 'spec.leaseDurationSeconds' },
          { reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.leaseTransitions' },
        ],
      );
      const r = await c.post(LEASES, {
        metadata: { name: 'leader' },
        spec: { holderIdentity: 'node-1', leaseDurationSeconds: 15, renewTime: '2024-01-01T00:00:00.000000Z' },
      });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(await causes('put', `${LEASES}/leader`, { ...r.body, spec: { ...r.body.spec, leaseDurationSeconds: -5 } }), [
        { reason: 'FieldValueInvalid', message: 'Invalid value: -5: must be greater than 0', field: 'spec.leaseDurationSeconds' },
      ]);
      const t = await table(`${LEASES}/leader`);
      assert.deepEqual(
        [t.columns, t.cells.slice(0, 2)],
        [
          ['Name', 'Holder', 'Age'],
          ['leader', 'node-1'],
        ],
      );
    });
  });
});
