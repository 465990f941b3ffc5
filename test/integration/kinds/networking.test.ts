/**
 * Endpoints, EndpointSlice (discovery.orch.io/v1), Ingress and IngressClass (networking.orch.io/v1)
 * over HTTP: discovery, Kubernetes' defaults as stored, each invalid case's 422 causes, the rules on
 * update, generation, the Ingress status subresource and the tables.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';
import type { TestClient } from '../../support/http-client.js';
import { TABLE, invalidCauses } from '../../support/api-assertions.js';

const NS = 'net';
const ENDPOINTS = `/api/v1/namespaces/${NS}/endpoints`;
const SLICES = `/apis/discovery.orch.io/v1/namespaces/${NS}/endpointslices`;
const INGRESSES = `/apis/networking.orch.io/v1/namespaces/${NS}/ingresses`;
const CLASSES = '/apis/networking.orch.io/v1/ingressclasses';

describe('networking kinds', () => {
  let s: TestServer;
  let c: TestClient;

  async function created(path: string, body: unknown): Promise<any> {
    const r = await c.post(path, body);
    assert.equal(r.status, 201, r.text);
    return r.body;
  }

  const causes = (method: 'post' | 'put', path: string, body: unknown) => invalidCauses(c, method, path, body);

  async function row(path: string): Promise<{ columns: string[]; cells: unknown[] }> {
    const r = await c.request('GET', path, { headers: { Accept: TABLE } });
    assert.equal(r.status, 200, r.text);
    return { columns: r.body.columnDefinitions.map((d: { name: string }) => d.name), cells: r.body.rows[0].cells };
  }

  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createNamespace(c, NS);
  });
  after(() => s?.stop());

  it('serves the groups under the domain', async () => {
    const core = (await c.get('/api/v1')).body.resources.find((r: { name: string }) => r.name === 'endpoints');
    assert.deepEqual([core.kind, core.singularName, core.shortNames], ['Endpoints', 'endpoints', ['ep']]);
    const discovery = (await c.get('/apis/discovery.orch.io/v1')).body.resources.map((r: { name: string }) => r.name);
    assert.deepEqual(discovery, ['endpointslices']);
    const networking = (await c.get('/apis/networking.orch.io/v1')).body.resources;
    assert.deepEqual(
      networking.map((r: { name: string }) => r.name),
      ['ingressclasses', 'ingresses', 'ingresses/status', 'networkpolicies'],
    );
    const ing = networking.find((r: { name: string }) => r.name === 'ingresses');
    assert.deepEqual([ing.shortNames, ing.namespaced], [['ing'], true]);
    assert.equal(networking.find((r: { name: string }) => r.name === 'ingressclasses').namespaced, false);
  });

  describe('Endpoints', () => {
    it('stores TCP by default and the subsets repacked', async () => {
      const body = await created(ENDPOINTS, {
        metadata: { name: 'web' },
        subsets: [
          { addresses: [{ ip: '10.1.0.9' }], ports: [{ name: 'http', port: 80 }] },
          { addresses: [{ ip: '10.1.0.2' }], ports: [{ name: 'http', port: 80 }] },
        ],
      });
      assert.deepEqual(body.subsets, [
        { addresses: [{ ip: '10.1.0.2' }, { ip: '10.1.0.9' }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
      ]);
      assert.deepEqual((await c.get(`${ENDPOINTS}/web`)).body, body);
      const table = await row(`${ENDPOINTS}/web`);
      assert.deepEqual(table.columns, ['Name', 'Endpoints', 'Age']);
      assert.deepEqual(table.cells.slice(0, 2), ['web', '10.1.0.2:80,10.1.0.9:80']);
    });

    it('may be created by PUT, as Kubernetes allows for Endpoints', async () => {
      const r = await c.put(`${ENDPOINTS}/by-put`, { metadata: { name: 'by-put' }, subsets: [] });
      assert.equal(r.status, 201, r.text);
    });

    it('refuses bad addresses and ports', async () => {
      assert.deepEqual(
        await causes('post', ENDPOINTS, {
          metadata: { name: 'bad' },
          subsets: [
            { addresses: [{ ip: '127.0.0.1' }], ports: [{ port: 0 }, { name: 'b', port: 80, protocol: 'HTTP' }] },
            { ports: [{ port: 80 }] },
          ],
        }),
        [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
            field: 'subsets[0].addresses[0].ip',
          },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'subsets[0].ports[0].name' },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: 0: must be between 1 and 65535, inclusive',
            field: 'subsets[0].ports[0].port',
          },
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
            field: 'subsets[0].ports[1].protocol',
          },
          { reason: 'FieldValueRequired', message: 'Required value: must specify `addresses` or `notReadyAddresses`', field: 'subsets[1]' },
        ],
      );
    });
  });

  describe('EndpointSlice', () => {
    const slice = (name: string, fields: Record<string, unknown>) => ({ metadata: { name }, ...fields });

    it('stores port defaults and generation 1; spec changes bump it', async () => {
      const body = await created(
        SLICES,
        slice('web-abc', {
          addressType: 'IPv4',
          endpoints: [{ addresses: ['10.1.0.5'], conditions: { ready: true } }],
          ports: [{ port: 80 }],
        }),
      );
      assert.equal(body.apiVersion, 'discovery.orch.io/v1');
      assert.deepEqual(body.ports, [{ port: 80, name: '', protocol: 'TCP' }]);
      assert.equal(body.metadata.generation, 1);
      const r = await c.put(`${SLICES}/web-abc`, { ...body, endpoints: [{ addresses: ['10.1.0.6'] }] });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.metadata.generation, 2);
      const table = await row(`${SLICES}/web-abc`);
      assert.deepEqual(table.columns, ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age']);
      assert.deepEqual(table.cells.slice(0, 4), ['web-abc', 'IPv4', '80', '10.1.0.6']);
    });

    it('keeps addressType', async () => {
      const current = (await c.get(`${SLICES}/web-abc`)).body;
      assert.deepEqual(await causes('put', `${SLICES}/web-abc`, { ...current, addressType: 'FQDN', endpoints: [] }), [
        { reason: 'FieldValueInvalid', message: 'Invalid value: "FQDN": field is immutable', field: 'addressType' },
      ]);
    });

    it('refuses addresses of the wrong type, unknown types and too many items', async () => {
      assert.deepEqual(await causes('post', SLICES, slice('v6', { addressType: 'IPv6', endpoints: [{ addresses: ['10.1.0.5'] }] })), [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "10.1.0.5": must be a valid IPv6 address',
          field: 'endpoints[0].addresses[0]',
        },
      ]);
      assert.deepEqual(await causes('post', SLICES, slice('ip', { addressType: 'IP' })), [
        {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"',
          field: 'addressType',
        },
      ]);
      const endpoints = Array.from({ length: 1001 }, (_, i) => ({ addresses: [`10.2.${i >> 8}.${i & 255 || 1}`] }));
      assert.deepEqual(await causes('post', SLICES, slice('big', { addressType: 'IPv4', endpoints })), [
        { reason: 'FieldValueTooMany', message: 'Too many: 1001: must have at most 1000 items', field: 'endpoints' },
      ]);
      const ports = Array.from({ length: 101 }, (_, i) => ({ name: `p${i}`, port: 1000 + i }));
      assert.deepEqual(await causes('post', SLICES, slice('ports', { addressType: 'IPv4', ports })), [
        { reason: 'FieldValueTooMany', message: 'Too many: 101: must have at most 100 items', field: 'ports' },
      ]);
      assert.deepEqual(
        await causes(
          'post',
          SLICES,
          slice('addrs', { addressType: 'FQDN', endpoints: [{ addresses: Array.from({ length: 101 }, () => 'a.example.com') }] }),
        ),
        [{ reason: 'FieldValueTooMany', message: 'Too many: 101: must have at most 100 items', field: 'endpoints[0].addresses' }],
      );
    });
  });

  describe('IngressClass', () => {
    it('defaults parameters.scope to Cluster; the controller never changes', async () => {
      const body = await created(CLASSES, {
        metadata: { name: 'nginx' },
        spec: { controller: 'example.com/ingress-nginx', parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'p' } },
      });
      assert.deepEqual(body.spec.parameters, { apiGroup: 'k8s.example.com', kind: 'Params', name: 'p', scope: 'Cluster' });
      assert.equal(body.metadata.generation, 1);
      assert.deepEqual(await causes('put', `${CLASSES}/nginx`, { ...body, spec: { ...body.spec, controller: 'example.com/other' } }), [
        { reason: 'FieldValueInvalid', message: 'Invalid value: "example.com/other": field is immutable', field: 'spec.controller' },
      ]);
      const table = await row(`${CLASSES}/nginx`);
      assert.deepEqual(table.columns, ['Name', 'Controller', 'Parameters', 'Age']);
      assert.deepEqual(table.cells.slice(0, 3), ['nginx', 'example.com/ingress-nginx', 'Params.k8s.example.com/p']);
    });

    it('refuses a bad controller and parameters that break the scope rules', async () => {
      assert.deepEqual(
        await causes('post', CLASSES, {
          metadata: { name: 'a' },
          spec: { controller: 'nginx', parameters: { kind: 'K', name: 'n', scope: 'Namespace' } },
        }),
        [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")',
            field: 'spec.controller',
          },
          {
            reason: 'FieldValueRequired',
            message: "Required value: `parameters.scope` is set to 'Namespace'",
            field: 'spec.parameters.namespace',
          },
        ],
      );
      assert.deepEqual(
        await causes('post', CLASSES, { metadata: { name: 'b' }, spec: { parameters: { kind: 'K', name: 'n', namespace: 'ns' } } }),
        [
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.controller' },
          {
            reason: 'FieldValueForbidden',
            message: "Forbidden: `parameters.scope` is set to 'Cluster'",
            field: 'spec.parameters.namespace',
          },
        ],
      );
    });
  });

  describe('Ingress', () => {
    const backend = { service: { name: 'web', port: { number: 80 } } };
    const ingress = (name: string, spec: Record<string, unknown>, annotations?: Record<string, string>) => ({
      metadata: { name, ...(annotations ? { annotations } : {}) },
      spec,
    });

    it('is stored as given, with generation 1 and an empty status', async () => {
      const spec = {
        ingressClassName: 'nginx',
        tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
        rules: [{ host: 'shop.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }],
      };
      const body = await created(INGRESSES, { ...ingress('shop', spec), status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } });
      assert.deepEqual(body.spec, spec);
      assert.equal(body.metadata.generation, 1);
      assert.equal(body.status, undefined);
    });

    it('refuses rules without backends, bad paths and hosts', async () => {
      assert.deepEqual(await causes('post', INGRESSES, ingress('empty', {})), [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: null: either `defaultBackend` or `rules` must be specified',
          field: 'spec',
        },
      ]);
      const paths = [
        { path: '/a', backend },
        { path: 'b', pathType: 'Exact', backend },
        { path: '/c', pathType: 'Prefix', backend: { service: { name: 'web' } } },
        { path: '/d', pathType: 'Prefix', backend: { ...backend, resource: { kind: 'Bucket', name: 'b' } } },
      ];
      assert.deepEqual(await causes('post', INGRESSES, ingress('bad', { rules: [{ host: '10.0.0.1', http: { paths } }] })), [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
          field: 'spec.rules[0].host',
        },
        {
          reason: 'FieldValueRequired',
          message: 'Required value: pathType must be specified',
          field: 'spec.rules[0].http.paths[0].pathType',
        },
        { reason: 'FieldValueInvalid', message: 'Invalid value: "b": must be an absolute path', field: 'spec.rules[0].http.paths[1].path' },
        {
          reason: 'FieldValueRequired',
          message: 'Required value: port name or number is required',
          field: 'spec.rules[0].http.paths[2].backend',
        },
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "": cannot set both resource and service backends',
          field: 'spec.rules[0].http.paths[3].backend',
        },
      ]);
    });

    it('checks the class annotation against ingressClassName on create only', async () => {
      assert.deepEqual(
        await causes(
          'post',
          INGRESSES,
          ingress('clash', { ingressClassName: 'nginx', defaultBackend: backend }, { 'orch.io/ingress.class': 'traefik' }),
        ),
        [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "traefik": must match `ingressClassName` when both are specified',
            field: 'annotations.orch.io/ingress.class',
          },
        ],
      );
      const body = await created(INGRESSES, ingress('legacy', { defaultBackend: backend }, { 'orch.io/ingress.class': 'traefik' }));
      const r = await c.put(`${INGRESSES}/legacy`, { ...body, spec: { ...body.spec, ingressClassName: 'nginx' } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.metadata.generation, 2);
    });

    it('status: set through /status only, validated, printed as the address', async () => {
      const status = { loadBalancer: { ingress: [{ ip: '203.0.113.9' }, { hostname: 'lb.example.com' }] } };
      const current = (await c.get(`${INGRESSES}/shop`)).body;
      const r = await c.put(`${INGRESSES}/shop/status`, { ...current, status });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.status, status);
      assert.equal(r.body.metadata.generation, 1);
      assert.deepEqual(
        await causes('put', `${INGRESSES}/shop/status`, { ...r.body, status: { loadBalancer: { ingress: [{ ip: '300.1.1.1' }] } } }),
        [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "300.1.1.1": must be a valid IP address',
            field: 'status.loadBalancer.ingress[0].ip',
          },
        ],
      );
      const table = await row(`${INGRESSES}/shop`);
      assert.deepEqual(table.columns, ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age']);
      assert.deepEqual(table.cells.slice(0, 5), ['shop', 'nginx', 'shop.example.com', '203.0.113.9,lb.example.com', '80, 443']);
    });
  });
});
