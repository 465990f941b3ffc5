/**
 * A small extension API server for aggregation tests: HTTPS with its own CA (its certificate names
 * `<service>.<namespace>.svc`), requiring a client certificate from orch's front-proxy CA, serving
 * `metrics.k8s.io/v1beta1` NodeMetrics and PodMetrics (lists, a watch that sends one event at once and
 * one later), aggregated discovery at /apis when asked (ETag, 304) or the legacy APIGroupList, its
 * OpenAPI v2 and v3 documents, a path that never answers (`/hang`), and recording every request's headers.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCA, ensureServingCert } from '../../apiserver/component-base/certs/certs.js';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  clientCN: string;
}

export interface ExtensionServer {
  port: number;
  /** The CA of its serving certificate (PEM), for the APIService's caBundle. */
  ca: string;
  seen: SeenRequest[];
  /** Answers discovery and everything with 500 while set. */
  failing: boolean;
  /** Never answers while set. */
  hanging: boolean;
  /** Answers every request 200 with a body of the right media type that is no document of the kind asked for, while set. */
  garbage: boolean;
  /** Serves only the legacy discovery documents (as extension servers before Kubernetes 1.26) while set. */
  legacyDiscovery: boolean;
  /** Never answers an upgrade while set (the request is read, nothing is sent back). */
  hangingUpgrades: boolean;
  /** How many upgrade sockets it holds unanswered now. */
  readonly heldUpgrades: number;
  close(): Promise<void>;
}

const GV = 'metrics.k8s.io/v1beta1';

const resourceList = {
  kind: 'APIResourceList',
  apiVersion: 'v1',
  groupVersion: GV,
  resources: [
    { name: 'nodes', singularName: '', namespaced: false, kind: 'NodeMetrics', verbs: ['get', 'list'] },
    { name: 'pods', singularName: '', namespaced: true, kind: 'PodMetrics', verbs: ['get', 'list'] },
  ],
};

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

const aggregatedList = JSON.stringify({
  kind: 'APIGroupDiscoveryList',
  apiVersion: 'apidiscovery.k8s.io/v2beta1',
  metadata: {},
  items: [
    {
      metadata: { name: 'metrics.k8s.io', creationTimestamp: null },
      versions: [
        {
          version: 'v1beta1',
          resources: [
            {
              resource: 'nodes',
              responseKind: { group: '', version: '', kind: 'NodeMetrics' },
              scope: 'Cluster',
              singularResource: '',
              verbs: ['get', 'list'],
            },
            {
              resource: 'pods',
              responseKind: { group: '', version: '', kind: 'PodMetrics' },
              scope: 'Namespaced',
              singularResource: '',
              verbs: ['get', 'list'],
            },
          ],
          freshness: 'Current',
        },
      ],
    },
  ],
});
const AGGREGATED_ETAG = '"metrics-discovery-1"';

const usage = { type: 'object', additionalProperties: { type: 'string' }, description: 'The resources used (CPU cores, memory bytes).' };
/** A swagger 2.0 document of the metrics group, as metrics-server publishes it (reduced; self-contained, as a real one). */
const openapiV2 = {
  swagger: '2.0',
  info: { title: 'metrics-server', version: 'v0.7.0' },
  paths: {
    [`/apis/${GV}/nodes`]: {
      get: {
        description: 'list objects of kind NodeMetrics',
        operationId: 'listMetricsV1beta1NodeMetrics',
        produces: ['application/json'],
        schemes: ['https'],
        responses: {
          '200': { description: 'OK', schema: { $ref: '#/definitions/io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetricsList' } },
        },
        'x-kubernetes-action': 'list',
        'x-kubernetes-group-version-kind': { group: 'metrics.k8s.io', version: 'v1beta1', kind: 'NodeMetrics' },
      },
    },
  },
  definitions: {
    'io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetrics': {
      description: 'NodeMetrics sets resource usage metrics of a node.',
      type: 'object',
      required: ['timestamp', 'window', 'usage'],
      properties: {
        apiVersion: { description: 'APIVersion defines the versioned schema of this representation of an object.', type: 'string' },
        kind: { description: 'Kind is a string value representing the REST resource this object represents.', type: 'string' },
        metadata: { description: "Standard object's metadata.", $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
        timestamp: {
          description: 'The following fields define time interval from which metrics were collected.',
          type: 'string',
          format: 'date-time',
        },
        window: { type: 'string' },
        usage: { ...usage, description: 'The memory usage is the memory working set.' },
      },
      'x-kubernetes-group-version-kind': [{ group: 'metrics.k8s.io', kind: 'NodeMetrics', version: 'v1beta1' }],
    },
    'io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetricsList': {
      description: 'NodeMetricsList is a list of NodeMetrics.',
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        items: { type: 'array', items: { $ref: '#/definitions/io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetrics' } },
        metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta' },
      },
      'x-kubernetes-group-version-kind': [{ group: 'metrics.k8s.io', kind: 'NodeMetricsList', version: 'v1beta1' }],
    },
    'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': {
      description: 'ObjectMeta is metadata that all persisted resources must have.',
      type: 'object',
      properties: { name: { description: 'Name must be unique within a namespace.', type: 'string' }, namespace: { type: 'string' } },
    },
    'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta': {
      description: 'ListMeta describes metadata that synthetic resources must have.',
      type: 'object',
      properties: { resourceVersion: { type: 'string' } },
    },
  },
};

function nodeMetrics(name: string) {
  return {
    metadata: { name, creationTimestamp: new Date().toISOString() },
    timestamp: new Date().toISOString(),
    window: '10s',
    usage: { cpu: '250m', memory: '512Mi' },
  };
}

function podMetrics(namespace: string, name: string) {
  return {
    metadata: { name, namespace, creationTimestamp: new Date().toISOString() },
    timestamp: new Date().toISOString(),
    window: '10s',
    containers: [{ name: 'app', usage: { cpu: '5m', memory: '20Mi' } }],
  };
}

export async function startExtensionServer(opts: {
  frontProxyCA: string;
  serviceName: string;
  namespace: string;
}): Promise<ExtensionServer> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-ext-'));
  const ca = ensureCA(dir);
  const serving = ensureServingCert(dir, ca, [`${opts.serviceName}.${opts.namespace}.svc`]);
  const seen: SeenRequest[] = [];
  const state = { failing: false, hanging: false, legacyDiscovery: false, hangingUpgrades: false, garbage: false };
  const upgrades = new Set<Duplex>();
  const server: Server = createServer(
    { cert: serving.certPem, key: serving.keyPem, ca: opts.frontProxyCA, requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const socket = req.socket as TLSSocket;
      const clientCN = socket.authorized ? String(socket.getPeerCertificate().subject?.CN ?? '') : '';
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, clientCN });
      const json = (code: number, body: unknown) => {
        res.writeHead(code, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (!clientCN) return json(401, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 401, reason: 'Unauthorized' });
      const url = new URL(req.url ?? '/', 'https://x');
      if (url.pathname === '/hang' || state.hanging) return; // never answers
      if (state.failing) return json(500, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 500 });
      if (state.garbage) {
        const asked = String(req.headers.accept ?? '').includes('as=APIGroupDiscoveryList');
        res.writeHead(200, { 'Content-Type': asked ? AGGREGATED : 'application/json' });
        return res.end(
          asked
            ? '{"items":[{"metadata":{"name":"metrics.k8s.io"},"versions":[{"version":7}]}]}'
            : '{"resources":"none","swagger":"2.0","paths":[]}',
        );
      }
      const path = url.pathname.replace(/\/+$/, '');
      if (path === '/apis') {
        if (!state.legacyDiscovery && String(req.headers.accept ?? '').includes('as=APIGroupDiscoveryList')) {
          if (req.headers['if-none-match'] === AGGREGATED_ETAG) {
            res.writeHead(304, { ETag: AGGREGATED_ETAG });
            return res.end();
          }
          res.writeHead(200, { 'Content-Type': AGGREGATED, ETag: AGGREGATED_ETAG, Vary: 'Accept' });
          return res.end(aggregatedList);
        }
        const gv = { groupVersion: GV, version: 'v1beta1' };
        return json(200, {
          kind: 'APIGroupList',
          apiVersion: 'v1',
          groups: [{ name: 'metrics.k8s.io', versions: [gv], preferredVersion: gv }],
        });
      }
      if (path === '/openapi/v2') return json(200, openapiV2);
      if (path === `/apis/${GV}`) return json(200, resourceList);
      // Any other group version it is registered for: an empty resource list.
      const other = /^\/apis\/([^/]+\/[^/]+)$/.exec(path);
      if (other) return json(200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: other[1], resources: [] });
      if (path === `/openapi/v3/apis/${GV}`)
        return json(200, { openapi: '3.0.0', info: { title: 'metrics', version: GV }, paths: { [`/apis/${GV}/nodes`]: {} } });
      const user = String(req.headers['x-remote-user'] ?? '');
      if (path === `/apis/${GV}/nodes`) {
        if (url.searchParams.get('watch') === 'true') {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.write(`${JSON.stringify({ type: 'ADDED', object: { kind: 'NodeMetrics', apiVersion: GV, ...nodeMetrics('n1') } })}\n`);
          const later = setTimeout(() => {
            res.write(`${JSON.stringify({ type: 'MODIFIED', object: { kind: 'NodeMetrics', apiVersion: GV, ...nodeMetrics('n1') } })}\n`);
          }, 300);
          res.once('close', () => clearTimeout(later));
          return;
        }
        return json(200, { kind: 'NodeMetricsList', apiVersion: GV, metadata: { resourceVersion: '1' }, items: [nodeMetrics('n1')], user });
      }
      const pods = /^\/apis\/metrics\.k8s\.io\/v1beta1(?:\/namespaces\/([^/]+))?\/pods$/.exec(path);
      if (pods) {
        const ns = pods[1] ?? 'default';
        return json(200, { kind: 'PodMetricsList', apiVersion: GV, metadata: { resourceVersion: '1' }, items: [podMetrics(ns, 'web-1')] });
      }
      json(404, {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        code: 404,
        reason: 'NotFound',
        message: 'the server could not find the requested resource',
      });
    },
  );
  // An upgrade (as `kubectl exec` would make of a resource of its own) switches to an echo of what follows.
  server.on('upgrade', (req, socket) => {
    const clientCN = (socket as TLSSocket).authorized ? String((socket as TLSSocket).getPeerCertificate().subject?.CN ?? '') : '';
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, clientCN });
    socket.on('error', () => socket.destroy());
    if (state.hangingUpgrades) {
      upgrades.add(socket);
      socket.once('close', () => upgrades.delete(socket));
      return;
    }
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n');
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    ca: ca.certPem,
    seen,
    get failing() {
      return state.failing;
    },
    set failing(v: boolean) {
      state.failing = v;
    },
    get hanging() {
      return state.hanging;
    },
    set hanging(v: boolean) {
      state.hanging = v;
    },
    get garbage() {
      return state.garbage;
    },
    set garbage(v: boolean) {
      state.garbage = v;
    },
    get legacyDiscovery() {
      return state.legacyDiscovery;
    },
    set legacyDiscovery(v: boolean) {
      state.legacyDiscovery = v;
    },
    get hangingUpgrades() {
      return state.hangingUpgrades;
    },
    set hangingUpgrades(v: boolean) {
      state.hangingUpgrades = v;
    },
    /** The upgrade sockets held open unanswered (hangingUpgrades). */
    get heldUpgrades() {
      return upgrades.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        for (const u of upgrades) u.destroy();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

/**
 * The Service leading to the extension server and the APIService on it. Endpoints may not hold a
 * loopback address (Kubernetes' validation), so a server on this machine is reached as kube-aggregator
 * reaches any outside one: an ExternalName Service (`localhost`) and the APIService naming the port.
 */
export function registration(namespace: string, name: string, port: number, ca: string, group = 'metrics.k8s.io', version = 'v1beta1') {
  return {
    service: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace },
      spec: { type: 'ExternalName', externalName: 'localhost' },
    },
    apiService: (apiVersion: string) => ({
      apiVersion,
      kind: 'APIService',
      metadata: { name: `${version}.${group}` },
      spec: {
        group,
        version,
        service: { namespace, name, port },
        caBundle: Buffer.from(ca).toString('base64'),
        groupPriorityMinimum: 100,
        versionPriority: 100,
      },
    }),
  };
}
