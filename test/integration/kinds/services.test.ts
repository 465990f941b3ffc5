/**
 * Services over HTTP: Kubernetes' defaults as stored, the invalid cases' 422 causes, cluster-IP and
 * node-port allocation from the shared ranges (automatic, manual, out of range, taken, freed on
 * delete, on type change and after a failed write, dry run), the default `orch` Service, dual stack,
 * the status subresource and the table.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';
import type { TestClient } from '../../support/http-client.js';
import { TABLE, type Cause } from '../../support/api-assertions.js';

const NS = 'svc';
const SVCS = `/api/v1/namespaces/${NS}/services`;

type Spec = Record<string, unknown>;

const service = (name: string, spec: Spec, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, ...metadata },
  spec,
});

/** The last octet of an address of 10.0.0.0/24. */
function hostPart(ip: string): number {
  const m = /^10\.0\.0\.(\d+)$/.exec(ip);
  assert.ok(m, `${ip} is not in 10.0.0.0/24`);
  return Number(m[1]);
}

describe('Services', () => {
  let s: TestServer;
  let c: TestClient;

  async function create(name: string, spec: Spec, query = ''): Promise<any> {
    const r = await c.post(`${SVCS}${query}`, service(name, spec));
    assert.equal(r.status, 201, r.text);
    return r.body;
  }

  async function invalid(method: 'post' | 'put', path: string, body: unknown): Promise<{ message: string; causes: Cause[] }> {
    const r = await c[method](path, body);
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.reason, 'Invalid');
    return { message: r.body.message, causes: r.body.details.causes };
  }

  async function update(name: string, change: (obj: any) => void): Promise<any> {
    const current = (await c.get(`${SVCS}/${name}`)).body;
    change(current);
    const r = await c.put(`${SVCS}/${name}`, current);
    assert.equal(r.status, 200, r.text);
    return r.body;
  }

  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createNamespace(c, NS);
  });
  after(() => s?.stop());

  describe('discovery and the default Service', () => {
    it('is served as svc in category all, with a status subresource', async () => {
      const resources = (await c.get('/api/v1')).body.resources;
      const svc = resources.find((r: { name: string }) => r.name === 'services');
      assert.deepEqual([svc.shortNames, svc.categories, svc.namespaced], [['svc'], ['all'], true]);
      assert.deepEqual(resources.find((r: { name: string }) => r.name === 'services/status').verbs, ['get', 'patch', 'update']);
    });

    it('orch in default holds 10.0.0.1, port 443 named https targeting the secure port', async () => {
      const r = await c.get('/api/v1/namespaces/default/services/orch');
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.metadata.labels, { provider: 'orch', component: 'apiserver' });
      assert.deepEqual(r.body.spec, {
        type: 'ClusterIP',
        clusterIP: '10.0.0.1',
        clusterIPs: ['10.0.0.1'],
        ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: s.port }],
        sessionAffinity: 'None',
        internalTrafficPolicy: 'Cluster',
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
      });
      const taken = await invalid('post', SVCS, service('wants-first', { clusterIP: '10.0.0.1', ports: [{ port: 80 }] }));
      assert.deepEqual(taken.causes, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: []string{"10.0.0.1"}: failed to allocate IP 10.0.0.1: provided IP is already allocated',
          field: 'spec.clusterIPs',
        },
      ]);
    });
  });

  describe('defaults as stored', () => {
    it('ClusterIP: an allocated address, SingleStack IPv4, TCP, targetPort = port, no generation', async () => {
      const body = await create('plain', { selector: { app: 'web' }, ports: [{ port: 80 }] });
      const ip = body.spec.clusterIP;
      // Automatic addresses come from above the static band (10.0.0.1-16), left for manual choices.
      assert.ok(hostPart(ip) >= 17);
      assert.deepEqual(body.spec, {
        selector: { app: 'web' },
        ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
        type: 'ClusterIP',
        sessionAffinity: 'None',
        internalTrafficPolicy: 'Cluster',
        clusterIP: ip,
        clusterIPs: [ip],
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
      });
      assert.deepEqual(body.status, { loadBalancer: {} });
      assert.equal(body.metadata.generation, undefined);
      assert.deepEqual((await c.get(`${SVCS}/plain`)).body, body);
    });

    it('NodePort: node ports from 30000-32767, externalTrafficPolicy Cluster', async () => {
      const body = await create('np', {
        type: 'NodePort',
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 81, nodePort: 30081 },
        ],
      });
      const [a, b] = body.spec.ports;
      assert.ok(a.nodePort >= 30000 && a.nodePort <= 32767 && a.nodePort !== 30081);
      assert.equal(b.nodePort, 30081);
      assert.equal(body.spec.externalTrafficPolicy, 'Cluster');
    });

    it('LoadBalancer with externalTrafficPolicy Local: a health-check node port, allocateLoadBalancerNodePorts true', async () => {
      const body = await create('lb-local', {
        type: 'LoadBalancer',
        externalTrafficPolicy: 'Local',
        sessionAffinity: 'ClientIP',
        ports: [{ port: 443 }],
      });
      assert.equal(body.spec.allocateLoadBalancerNodePorts, true);
      assert.ok(body.spec.healthCheckNodePort >= 30000 && body.spec.healthCheckNodePort <= 32767);
      assert.notEqual(body.spec.healthCheckNodePort, body.spec.ports[0].nodePort);
      assert.deepEqual(body.spec.sessionAffinityConfig, { clientIP: { timeoutSeconds: 10800 } });
    });

    it('LoadBalancer without node ports when allocateLoadBalancerNodePorts is false', async () => {
      const body = await create('lb-bare', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ port: 80 }] });
      assert.equal(body.spec.ports[0].nodePort, undefined);
    });

    it('ExternalName: no cluster IP, no IP family fields', async () => {
      const body = await create('ext', { type: 'ExternalName', externalName: 'db.example.com' });
      assert.deepEqual(body.spec, { type: 'ExternalName', externalName: 'db.example.com', sessionAffinity: 'None' });
    });

    it('headless: clusterIP None, no address taken; without a selector it is RequireDualStack', async () => {
      const body = await create('headless', { clusterIP: 'None', ports: [{ port: 80 }] });
      assert.deepEqual(
        [body.spec.clusterIP, body.spec.clusterIPs, body.spec.ipFamilyPolicy, body.spec.ipFamilies],
        ['None', ['None'], 'RequireDualStack', ['IPv4', 'IPv6']],
      );
      const selected = await create('headless-sel', { clusterIP: 'None', selector: { app: 'x' } });
      assert.deepEqual([selected.spec.ipFamilyPolicy, selected.spec.ipFamilies], ['SingleStack', ['IPv4']]);
    });
  });

  describe('validation', () => {
    const cases: [string, Spec, Cause[], Record<string, unknown>?][] = [
      [
        'name-1035',
        { ports: [{ port: 80 }] },
        [
          {
            reason: 'FieldValueInvalid',
            message:
              "Invalid value: \"1abc\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
            field: 'metadata.name',
          },
        ],
        { name: '1abc' },
      ],
      ['no-ports', {}, [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.ports' }]],
      [
        'ports',
        { ports: [{ port: 80 }, { name: 'b', port: 80, protocol: 'ICMP', targetPort: 0 }] },
        [
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.ports[0].name' },
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
            field: 'spec.ports[1].protocol',
          },
        ],
      ],
      [
        'duplicate-port',
        {
          ports: [
            { name: 'a', port: 80 },
            { name: 'b', port: 80 },
          ],
        },
        [{ reason: 'FieldValueDuplicate', message: 'Duplicate value: {"protocol":"TCP","port":80}', field: 'spec.ports[1]' }],
      ],
      [
        'node-port-on-cluster-ip',
        { ports: [{ port: 80, nodePort: 30100 }] },
        [
          {
            reason: 'FieldValueForbidden',
            message: "Forbidden: may not be used when `type` is 'ClusterIP'",
            field: 'spec.ports[0].nodePort',
          },
        ],
      ],
      [
        'external-name',
        { type: 'ExternalName', externalName: 'Bad_Name' },
        [
          {
            reason: 'FieldValueInvalid',
            message:
              "Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            field: 'spec.externalName',
          },
        ],
      ],
      [
        'external-name-missing',
        { type: 'ExternalName' },
        [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.externalName' }],
      ],
      [
        'affinity',
        { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } }, ports: [{ port: 80 }] },
        [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: 0: must be greater than 0 and less than 86400',
            field: 'spec.sessionAffinityConfig.clientIP.timeoutSeconds',
          },
        ],
      ],
      [
        'lb-class',
        { loadBalancerClass: 'example.com/lb', ports: [{ port: 80 }] },
        [
          {
            reason: 'FieldValueForbidden',
            message: "Forbidden: may only be used when `type` is 'LoadBalancer'",
            field: 'spec.loadBalancerClass',
          },
        ],
      ],
      [
        'etp',
        { externalTrafficPolicy: 'Local', ports: [{ port: 80 }] },
        [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "Local": may only be set for externally-accessible services',
            field: 'spec.externalTrafficPolicy',
          },
        ],
      ],
      [
        'hc',
        { type: 'NodePort', healthCheckNodePort: 30410, ports: [{ port: 80 }] },
        [
          {
            reason: 'FieldValueInvalid',
            message: "Invalid value: 30410: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
            field: 'spec.healthCheckNodePort',
          },
        ],
      ],
      [
        'policy',
        { ipFamilyPolicy: 'Dual', ports: [{ port: 80 }] },
        [
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "Dual": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"',
            field: 'spec.ipFamilyPolicy',
          },
        ],
      ],
      [
        'families',
        { clusterIP: '10.0.0.77', ipFamilies: ['IPv6'], ipFamilyPolicy: 'SingleStack', ports: [{ port: 80 }] },
        [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "10.0.0.77": expected an IPv6 value as indicated by `ipFamilies[0]`',
            field: 'spec.clusterIPs[0]',
          },
        ],
      ],
      [
        'type',
        { type: 'Weird', ports: [{ port: 80 }] },
        [
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "Weird": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
            field: 'spec.type',
          },
        ],
      ],
    ];
    for (const [name, spec, want, meta] of cases) {
      it(`refuses ${name}`, async () => {
        const got = await invalid('post', SVCS, service(name, spec, meta));
        assert.deepEqual(got.causes, want);
      });
    }

    it('names the kind and every cause in the message', async () => {
      const got = await invalid('post', SVCS, service('two-errors', { type: 'ExternalName', loadBalancerClass: 'a/b' }));
      assert.equal(
        got.message,
        'Service "two-errors" is invalid: [spec.externalName: Required value, spec.loadBalancerClass: Forbidden: may only be used when `type` is \'LoadBalancer\']',
      );
    });

    it('refuses a body of the wrong shape with 400', async () => {
      const r = await c.post(SVCS, service('shape', { ports: 'eighty' }));
      assert.equal(r.status, 400, r.text);
    });
  });

  describe('cluster IP allocation', () => {
    it('honours a free address in range and refuses one out of range or of another family', async () => {
      const body = await create('manual-ip', { clusterIP: '10.0.0.2', ports: [{ port: 80 }] });
      assert.deepEqual(body.spec.clusterIPs, ['10.0.0.2']);
      const out = await invalid('post', SVCS, service('out-of-range', { clusterIP: '10.0.1.5', ports: [{ port: 80 }] }));
      assert.deepEqual(out.causes, [
        {
          reason: 'FieldValueInvalid',
          message:
            'Invalid value: []string{"10.0.1.5"}: failed to allocate IP 10.0.1.5: provided IP is not in the valid range. The range of valid IPs is 10.0.0.0/24',
          field: 'spec.clusterIPs',
        },
      ]);
      assert.equal((await c.get(`${SVCS}/out-of-range`)).status, 404);
      const taken = await invalid('post', SVCS, service('taken-ip', { clusterIP: '10.0.0.2', ports: [{ port: 80 }] }));
      assert.equal(
        taken.causes[0].message,
        'Invalid value: []string{"10.0.0.2"}: failed to allocate IP 10.0.0.2: provided IP is already allocated',
      );
      const v6 = await invalid('post', SVCS, service('v6', { clusterIP: 'fd00::5', ports: [{ port: 80 }] }));
      assert.deepEqual(v6.causes, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: []string{"fd00::5"}: IPv6 is not configured on this cluster',
          field: 'spec.clusterIPs[0]',
        },
      ]);
      const dual = await invalid('post', SVCS, service('dual', { ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] }));
      assert.deepEqual(dual.causes, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
          field: 'spec.ipFamilyPolicy',
        },
      ]);
    });

    it('frees the address on delete', async () => {
      await create('reuse-a', { clusterIP: '10.0.0.3', ports: [{ port: 80 }] });
      assert.equal((await c.delete(`${SVCS}/reuse-a`)).status, 200);
      await create('reuse-b', { clusterIP: '10.0.0.3', ports: [{ port: 80 }] });
    });

    it('gives the address back when the write fails after allocating (name taken)', async () => {
      await create('occupied', { ports: [{ port: 80 }] });
      const r = await c.post(SVCS, service('occupied', { clusterIP: '10.0.0.4', ports: [{ port: 80 }] }));
      assert.equal(r.status, 409, r.text);
      assert.equal(r.body.reason, 'AlreadyExists');
      await create('after-conflict', { clusterIP: '10.0.0.4', ports: [{ port: 80 }] });
    });

    it('dry run shows the allocation and keeps nothing', async () => {
      const dry = await c.post(
        `${SVCS}?dryRun=All`,
        service('dry', {
          clusterIP: '10.0.0.5',
          type: 'NodePort',
          ports: [
            { name: 'a', port: 80, nodePort: 30020 },
            { name: 'b', port: 81 },
          ],
        }),
      );
      assert.equal(dry.status, 201, dry.text);
      assert.equal(dry.body.spec.clusterIP, '10.0.0.5');
      assert.ok(dry.body.spec.ports[1].nodePort >= 30000);
      assert.equal((await c.get(`${SVCS}/dry`)).status, 404);
      const real = await create('dry', { clusterIP: '10.0.0.5', type: 'NodePort', ports: [{ port: 80, nodePort: 30020 }] });
      assert.equal(real.spec.ports[0].nodePort, 30020);
      const dryTaken = await invalid('post', `${SVCS}?dryRun=All`, service('dry-2', { clusterIP: '10.0.0.5', ports: [{ port: 80 }] }));
      assert.equal(
        dryTaken.causes[0].message,
        'Invalid value: []string{"10.0.0.5"}: failed to allocate IP 10.0.0.5: provided IP is already allocated',
      );
    });

    it('keeps the address on updates that leave it out, and refuses a change', async () => {
      const first = await create('keep-ip', { ports: [{ port: 80 }] });
      const ip = first.spec.clusterIP;
      const r = await c.put(`${SVCS}/keep-ip`, service('keep-ip', { ports: [{ port: 8080 }] }));
      assert.equal(r.status, 200, r.text);
      assert.deepEqual([r.body.spec.clusterIP, r.body.spec.clusterIPs, r.body.spec.ports[0].port], [ip, [ip], 8080]);
      const other = '10.0.0.11';
      const changed = await c.put(`${SVCS}/keep-ip`, service('keep-ip', { clusterIP: other, ports: [{ port: 80 }] }));
      assert.equal(changed.status, 422, changed.text);
      assert.deepEqual(changed.body.details.causes, [
        {
          reason: 'FieldValueInvalid',
          message: `Invalid value: []string{"${other}"}: may not change once set`,
          field: 'spec.clusterIPs[0]',
        },
      ]);
    });
  });

  describe('node port allocation', () => {
    it('refuses a port out of range or taken, with the port cause', async () => {
      const out = await invalid('post', SVCS, service('np-out', { type: 'NodePort', ports: [{ port: 80, nodePort: 40000 }] }));
      assert.deepEqual(out.causes, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: 40000: provided port is not in the valid range. The range of valid ports is 30000-32767',
          field: 'spec.ports[0].nodePort',
        },
      ]);
      await create('np-owner', { type: 'NodePort', ports: [{ port: 80, nodePort: 30021 }] });
      const taken = await invalid(
        'post',
        SVCS,
        service('np-taken', {
          type: 'NodePort',
          clusterIP: '10.0.0.6',
          ports: [
            { name: 'a', port: 80, nodePort: 30025 },
            { name: 'b', port: 81, nodePort: 30021 },
          ],
        }),
      );
      assert.deepEqual(taken.causes, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: 30021: provided port is already allocated',
          field: 'spec.ports[1].nodePort',
        },
      ]);
      // The refused Service took nothing: neither its cluster IP nor its other node port.
      await create('np-after-refusal', { type: 'NodePort', clusterIP: '10.0.0.6', ports: [{ port: 80, nodePort: 30025 }] });
    });

    it('ports with the same number share one node port', async () => {
      const body = await create('np-shared', {
        type: 'NodePort',
        ports: [
          { name: 'tcp', port: 53 },
          { name: 'udp', port: 53, protocol: 'UDP' },
        ],
      });
      assert.equal(body.spec.ports[0].nodePort, body.spec.ports[1].nodePort);
    });

    it('frees node ports on delete', async () => {
      await create('np-del', { type: 'NodePort', ports: [{ port: 80, nodePort: 30022 }] });
      assert.equal((await c.delete(`${SVCS}/np-del`)).status, 200);
      await create('np-del-2', { type: 'NodePort', ports: [{ port: 80, nodePort: 30022 }] });
    });

    it('frees node ports and the health-check port when the type no longer needs them', async () => {
      await create('lb-to-cip', {
        type: 'LoadBalancer',
        externalTrafficPolicy: 'Local',
        healthCheckNodePort: 30024,
        ports: [{ port: 80, nodePort: 30023 }],
      });
      const changed = await update('lb-to-cip', (o) => {
        o.spec.type = 'ClusterIP';
      });
      assert.deepEqual(changed.spec.ports, [{ port: 80, protocol: 'TCP', targetPort: 80 }]);
      for (const f of ['healthCheckNodePort', 'allocateLoadBalancerNodePorts', 'externalTrafficPolicy'])
        assert.equal(changed.spec[f], undefined, f);
      await create('takes-freed', {
        type: 'LoadBalancer',
        externalTrafficPolicy: 'Local',
        healthCheckNodePort: 30023,
        ports: [{ port: 80, nodePort: 30024 }],
      });
    });

    it('a NodePort update takes new ports and releases dropped ones', async () => {
      await create('np-update', { type: 'NodePort', ports: [{ name: 'a', port: 80, nodePort: 30026 }] });
      const body = await update('np-update', (o) => {
        o.spec.ports = [{ name: 'b', port: 81, nodePort: 30027 }];
      });
      assert.equal(body.spec.ports[0].nodePort, 30027);
      await create('np-update-2', { type: 'NodePort', ports: [{ port: 80, nodePort: 30026 }] });
      const taken = await invalid('post', SVCS, service('np-update-3', { type: 'NodePort', ports: [{ port: 80, nodePort: 30027 }] }));
      assert.equal(taken.causes[0].message, 'Invalid value: 30027: provided port is already allocated');
    });
  });

  describe('ExternalName transitions', () => {
    it('to ExternalName clears and frees the cluster IP fields; back allocates again', async () => {
      await create('to-ext', { clusterIP: '10.0.0.7', ports: [{ port: 80 }] });
      const ext = await update('to-ext', (o) => {
        o.spec.type = 'ExternalName';
        o.spec.externalName = 'db.example.com';
      });
      for (const f of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy']) assert.equal(ext.spec[f], undefined, f);
      await create('takes-210', { clusterIP: '10.0.0.7', ports: [{ port: 80 }] });
      const back = await update('to-ext', (o) => {
        o.spec.type = 'ClusterIP';
        delete o.spec.externalName;
      });
      assert.ok(hostPart(back.spec.clusterIP) > 16);
      assert.deepEqual([back.spec.ipFamilies, back.spec.ipFamilyPolicy], [['IPv4'], 'SingleStack']);
    });
  });

  describe('status subresource', () => {
    it('sets load-balancer status and conditions, validated; spec is untouched', async () => {
      const created = await create('lb-status', { type: 'LoadBalancer', ports: [{ port: 80 }] });
      const status = {
        loadBalancer: { ingress: [{ ip: '203.0.113.7' }, { hostname: 'lb.example.com' }] },
        conditions: [
          { type: 'example.com/Ready', status: 'True', reason: 'Provisioned', message: '', lastTransitionTime: '2024-01-01T00:00:00Z' },
        ],
      };
      const r = await c.put(`${SVCS}/lb-status/status`, { ...created, spec: { type: 'ClusterIP' }, status });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.status, status);
      assert.equal(r.body.spec.type, 'LoadBalancer');
      const bad = await invalid('put', `${SVCS}/lb-status/status`, {
        ...r.body,
        status: {
          loadBalancer: { ingress: [{ ip: 'nope' }, { hostname: '10.0.0.1' }] },
          conditions: [{ type: 'Ready', status: 'Maybe', reason: '1x' }],
        },
      });
      assert.deepEqual(bad.causes, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "nope": must be a valid IP address',
          field: 'status.loadBalancer.ingress[0].ip',
        },
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
          field: 'status.loadBalancer.ingress[1].hostname',
        },
        {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
          field: 'status.conditions[0].status',
        },
        { reason: 'FieldValueRequired', message: 'Required value: must be set', field: 'status.conditions[0].lastTransitionTime' },
        {
          reason: 'FieldValueInvalid',
          message:
            "Invalid value: \"1x\": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')",
          field: 'status.conditions[0].reason',
        },
      ]);
    });

    it('a type change away from LoadBalancer clears the load-balancer status', async () => {
      const body = await update('lb-status', (o) => {
        o.spec.type = 'NodePort';
      });
      assert.deepEqual(body.status.loadBalancer, {});
      assert.equal(body.status.conditions.length, 1);
    });
  });

  describe('reading', () => {
    it('prints the table like kubectl get services -o wide', async () => {
      await create('table', {
        type: 'NodePort',
        selector: { tier: 'web', app: 'shop' },
        ports: [
          { name: 'http', port: 80, nodePort: 30028 },
          { name: 'dns', port: 53, protocol: 'UDP' },
        ],
      });
      const r = await c.request('GET', `${SVCS}/table`, { headers: { Accept: TABLE } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(
        r.body.columnDefinitions.map((d: { name: string; priority: number }) => [d.name, d.priority]),
        [
          ['Name', 0],
          ['Type', 0],
          ['Cluster-IP', 0],
          ['External-IP', 0],
          ['Port(s)', 0],
          ['Age', 0],
          ['Selector', 1],
        ],
      );
      const cells = r.body.rows[0].cells;
      const ip = (await c.get(`${SVCS}/table`)).body.spec.clusterIP;
      assert.equal(cells[0], 'table');
      assert.deepEqual(cells.slice(1, 4), ['NodePort', ip, '<none>']);
      assert.match(cells[4], /^80:30028\/TCP,53:3\d{4}\/UDP$/);
      assert.equal(cells[6], 'app=shop,tier=web');
    });

    it('selects by metadata only: spec.type and spec.clusterIP are not field labels of Services in 1.28', async () => {
      const r = await c.get(`${SVCS}?fieldSelector=spec.type%3DExternalName`);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.message, '"spec.type" is not a known field selector: only "metadata.name", "metadata.namespace"');
      const byName = await c.get(`${SVCS}?fieldSelector=metadata.name%3Dext`);
      assert.deepEqual(
        byName.body.items.map((i: { metadata: { name: string } }) => i.metadata.name),
        ['ext'],
      );
    });
  });
});

describe('Services on a dual-stack cluster', () => {
  let s: TestServer;
  let c: TestClient;
  before(async () => {
    s = await startTestServer({ args: ['--service-cluster-ip-range=fd00:10::/112,10.10.0.0/24', '--service-node-port-range=30021-31099'] });
    c = s.client;
    await createNamespace(c, NS);
  });
  after(() => s?.stop());

  const post = async (name: string, spec: Spec) => {
    const r = await c.post(SVCS, service(name, spec));
    assert.equal(r.status, 201, r.text);
    return r.body;
  };

  it('the primary range decides the default family and the default Service address', async () => {
    const orch = (await c.get('/api/v1/namespaces/default/services/orch')).body;
    assert.deepEqual([orch.spec.clusterIP, orch.spec.ipFamilies], ['fd00:10::1', ['IPv6']]);
    const single = await post('single', { ports: [{ port: 80 }] });
    assert.match(single.spec.clusterIP, /^fd00:10::[0-9a-f]+$/);
    assert.deepEqual(single.spec.ipFamilies, ['IPv6']);
  });

  it('PreferDualStack and RequireDualStack get one address per family, in ipFamilies order', async () => {
    const prefer = await post('prefer', { ipFamilyPolicy: 'PreferDualStack', ports: [{ port: 80 }] });
    assert.deepEqual(prefer.spec.ipFamilies, ['IPv6', 'IPv4']);
    assert.match(prefer.spec.clusterIPs[0], /^fd00:10::/);
    assert.match(prefer.spec.clusterIPs[1], /^10\.10\.0\.\d+$/);
    const require = await post('require', { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4'], ports: [{ port: 80 }] });
    assert.deepEqual(require.spec.ipFamilies, ['IPv4', 'IPv6']);
    assert.equal(require.spec.clusterIP, require.spec.clusterIPs[0]);
    assert.match(require.spec.clusterIP, /^10\.10\.0\./);
    const given = await post('given', {
      ipFamilyPolicy: 'RequireDualStack',
      clusterIP: '10.10.0.9',
      clusterIPs: ['10.10.0.9', 'fd00:10::99'],
      ports: [{ port: 80 }],
    });
    assert.deepEqual(given.spec.ipFamilies, ['IPv4', 'IPv6']);
    const out = await c.post(
      SVCS,
      service('out', {
        ipFamilyPolicy: 'RequireDualStack',
        clusterIP: '10.10.0.8',
        clusterIPs: ['10.10.0.8', 'fd00:11::1'],
        ports: [{ port: 80 }],
      }),
    );
    assert.equal(out.status, 422, out.text);
    assert.deepEqual(out.body.details.causes, [
      {
        reason: 'FieldValueInvalid',
        message:
          'Invalid value: []string{"10.10.0.8", "fd00:11::1"}: failed to allocate IP fd00:11::1: provided IP is not in the valid range. The range of valid IPs is fd00:10::/112',
        field: 'spec.clusterIPs',
      },
    ]);
    // The primary address taken before the secondary failed was given back.
    await post('after-out', { clusterIP: '10.10.0.8', clusterIPs: ['10.10.0.8'], ports: [{ port: 80 }] });
  });

  it('upgrades to dual-stack and downgrades, releasing the secondary address', async () => {
    await post('grow', { ports: [{ port: 80 }] });
    const grown = (await c.patch(`${SVCS}/grow`, { spec: { ipFamilyPolicy: 'RequireDualStack' } }, 'application/merge-patch+json')).body;
    assert.deepEqual(grown.spec.ipFamilies, ['IPv6', 'IPv4']);
    assert.equal(grown.spec.clusterIPs.length, 2);
    const secondary = grown.spec.clusterIPs[1];
    const refused = await c.patch(`${SVCS}/grow`, { spec: { clusterIPs: [grown.spec.clusterIPs[0]] } }, 'application/merge-patch+json');
    assert.equal(refused.status, 422, refused.text);
    assert.deepEqual(
      refused.body.details.causes.map((x: Cause) => x.field),
      ['spec.ipFamilyPolicy'],
    );
    const shrunk = (await c.patch(`${SVCS}/grow`, { spec: { ipFamilyPolicy: 'SingleStack' } }, 'application/merge-patch+json')).body;
    assert.deepEqual([shrunk.spec.clusterIPs, shrunk.spec.ipFamilies], [[grown.spec.clusterIPs[0]], ['IPv6']]);
    await post('takes-secondary', { ipFamilies: ['IPv4'], clusterIP: secondary, clusterIPs: [secondary], ports: [{ port: 80 }] });
  });

  it('uses the configured node-port range', async () => {
    const np = await post('np', { type: 'NodePort', ports: [{ port: 80 }] });
    assert.ok(np.spec.ports[0].nodePort >= 30021 && np.spec.ports[0].nodePort <= 31099);
    const r = await c.post(SVCS, service('np-out', { type: 'NodePort', ports: [{ port: 80, nodePort: 30000 }] }));
    assert.equal(
      r.body.details.causes[0].message,
      'Invalid value: 30000: provided port is not in the valid range. The range of valid ports is 30021-31099',
    );
  });
});

describe('Services after the ranges change on restart', () => {
  it('the ranges are rebuilt from the stored Services', async () => {
    const first = await startTestServer();
    try {
      await createNamespace(first.client, NS);
      const r = await first.client.post(
        SVCS,
        service('kept', { type: 'NodePort', clusterIP: '10.0.0.10', ports: [{ port: 80, nodePort: 30410 }] }),
      );
      assert.equal(r.status, 201, r.text);
    } catch (err) {
      await first.stop();
      throw err;
    }
    const second = await first.restart({ args: ['--service-cluster-ip-range=10.0.0.0/23', '--service-node-port-range=30400-30599'] });
    try {
      const c = second.client;
      const ip = await c.post(SVCS, service('same-ip', { clusterIP: '10.0.0.10', ports: [{ port: 80 }] }));
      assert.equal(ip.status, 422, ip.text);
      assert.equal(
        ip.body.details.causes[0].message,
        'Invalid value: []string{"10.0.0.10"}: failed to allocate IP 10.0.0.10: provided IP is already allocated',
      );
      const port = await c.post(SVCS, service('same-port', { type: 'NodePort', ports: [{ port: 80, nodePort: 30410 }] }));
      assert.equal(port.body.details.causes[0].message, 'Invalid value: 30410: provided port is already allocated');
      const fresh = await c.post(SVCS, service('fresh', { type: 'NodePort', clusterIP: '10.0.1.50', ports: [{ port: 80 }] }));
      assert.equal(fresh.status, 201, fresh.text);
      assert.ok(fresh.body.spec.ports[0].nodePort >= 30400 && fresh.body.spec.ports[0].nodePort <= 30599);
    } finally {
      await second.stop();
    }
  });
});

describe('Services under the k8s.io domain', () => {
  it('the default Service is named kubernetes, and annotations use the kubernetes.io prefix', async () => {
    const s = await startTestServer({ args: ['--api-domain=k8s.io'] });
    try {
      const r = await s.client.get('/api/v1/namespaces/default/services/kubernetes');
      assert.equal(r.status, 200, r.text);
      assert.deepEqual([r.body.spec.clusterIP, r.body.metadata.labels.provider], ['10.0.0.1', 'kubernetes']);
      const bad = await s.client.post(
        '/api/v1/namespaces/default/services',
        service(
          'lb',
          { ports: [{ port: 80 }] },
          { annotations: { 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/8' } },
        ),
      );
      assert.equal(bad.status, 422, bad.text);
      assert.deepEqual(bad.body.details.causes, [
        {
          reason: 'FieldValueForbidden',
          message: "Forbidden: may only be used when `type` is 'LoadBalancer'",
          field: 'metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]',
        },
      ]);
    } finally {
      await s.stop();
    }
  });
});

describe('Services when a range is full', () => {
  it('answers 500 InternalError as Kubernetes does, and takes nothing', async () => {
    const s = await startTestServer({ args: ['--service-cluster-ip-range=10.20.0.0/29', '--service-node-port-range=30000-30001'] });
    try {
      const c = s.client;
      const post = (name: string, spec: Spec) => c.post('/api/v1/namespaces/default/services', service(name, spec));
      // 10.20.0.1 is the default Service's; five addresses are left.
      for (let i = 0; i < 5; i++) assert.equal((await post(`s${i}`, { ports: [{ port: 80 }] })).status, 201);
      const full = await post('s5', { ports: [{ port: 80 }] });
      assert.equal(full.status, 500, full.text);
      assert.equal(full.body.reason, 'InternalError');
      assert.equal(full.body.message, 'Internal error occurred: failed to allocate a serviceIP: range is full');
      assert.equal((await c.delete('/api/v1/namespaces/default/services/s0')).status, 200);
      const ports = await post('np', {
        type: 'NodePort',
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 81 },
          { name: 'c', port: 82 },
        ],
      });
      assert.equal(ports.status, 500, ports.text);
      assert.equal(ports.body.message, 'Internal error occurred: failed to allocate a nodePort: range is full');
      // The address the refused Service had taken was given back.
      assert.equal(
        (
          await post('np', {
            type: 'NodePort',
            ports: [
              { name: 'a', port: 80 },
              { name: 'b', port: 81 },
            ],
          })
        ).status,
        201,
      );
    } finally {
      await s.stop();
    }
  });
});
