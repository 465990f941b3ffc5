/** The aggregation layer's pure parts: kube-aggregator's ordering, the merged discovery groups, the proxied headers, endpoint resolution. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { APIService } from '../../../../apiserver/api/generated/types.js';
import { sortedByGroupAndVersion, builtInPriority } from '../../../../apiserver/server/aggregator/priorities.js';
import { mergedGroups } from '../../../../apiserver/server/aggregator/merged-groups.js';
import { proxiedHeaders } from '../../../../apiserver/server/aggregator/proxy.js';
import { resolveEndpoint, type ResolveError } from '../../../../apiserver/server/aggregator/resolve-endpoint.js';

const svc = (group: string, version: string, g: number, v: number): APIService => ({
  metadata: { name: `${version}.${group}` },
  spec: { group, version, groupPriorityMinimum: g, versionPriority: v },
});

test('groups by their highest priority then name; versions by priority then kube-aware order', () => {
  const sorted = sortedByGroupAndVersion([
    svc('b.example.com', 'v1', 100, 10),
    svc('a.example.com', 'v1beta1', 100, 10),
    svc('a.example.com', 'v1', 100, 10),
    svc('a.example.com', 'v2alpha1', 100, 50),
    svc('top.example.com', 'v1', 20000, 1),
  ]);
  assert.deepEqual(
    sorted.map((g) => g.map((s) => s.metadata.name)),
    [['v1.top.example.com'], ['v2alpha1.a.example.com', 'v1.a.example.com', 'v1beta1.a.example.com'], ['v1.b.example.com']],
  );
});

test('merged discovery: the aggregator group first, served groups with their built-in priority, remote ones by theirs', () => {
  const local = [
    { group: '', versions: ['v1'], preferredVersion: 'v1' },
    { group: 'apps', versions: ['v1'], preferredVersion: 'v1' },
    { group: 'autoscaling', versions: ['v2', 'v1'], preferredVersion: 'v2' },
    { group: 'apiregistration.k8s.io', versions: ['v1'], preferredVersion: 'v1' },
  ];
  const prio = (g: string, v: string) => builtInPriority(g, v);
  const groups = mergedGroups(local, [svc('metrics.k8s.io', 'v1beta1', 17900, 100)], prio, 'apiregistration.k8s.io');
  assert.deepEqual(
    groups.map((g) => `${g.group}:${g.versions.join(',')}`),
    ['apiregistration.k8s.io:v1', 'metrics.k8s.io:v1beta1', 'apps:v1', 'autoscaling:v2,v1'],
  );
});

test('proxied headers: credentials and claimed identities removed, the user asserted', () => {
  const names = { usernameHeader: 'X-Remote-User', groupHeader: 'X-Remote-Group', extraHeaderPrefix: 'X-Remote-Extra-' };
  const headers = proxiedHeaders(
    {
      authorization: 'Bearer t',
      cookie: 'a=b',
      'impersonate-user': 'x',
      'x-remote-user': 'mallory',
      'x-remote-extra-scopes': 'all',
      accept: 'application/json',
    },
    { name: 'jane', groups: ['dev', 'system:authenticated'], extra: { 'scopes.example.com/a b': ['x'] } },
    names,
  );
  assert.deepEqual(headers, {
    accept: 'application/json',
    'X-Remote-User': 'jane',
    'X-Remote-Group': ['dev', 'system:authenticated'],
    'X-Remote-Extra-scopes.example.com%2Fa%20b': ['x'],
  });
});

test('endpoint routing: the Service port by number, then an address of its Endpoints with that port name', async () => {
  const reader = {
    service: async () => ({
      metadata: { name: 's' },
      spec: { clusterIP: '10.0.0.9', ports: [{ name: 'https', port: 443, targetPort: 8443 }] },
    }),
    endpoints: async () => ({
      metadata: { name: 's' },
      subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ name: 'https', port: 8443 }] }],
    }),
  };
  const t = { namespace: 'ns', name: 's', port: 443 };
  assert.deepEqual(await resolveEndpoint(reader as never, t, true), { host: '10.1.2.3', port: 8443 });
  assert.deepEqual(await resolveEndpoint(reader as never, t, false), { host: '10.0.0.9', port: 443 });
  await assert.rejects(resolveEndpoint(reader as never, { ...t, port: 444 }, true), (e: ResolveError) => e.reason === 'ServicePortError');
  const none = { ...reader, endpoints: async () => ({ metadata: { name: 's' }, subsets: [] }) };
  await assert.rejects(
    resolveEndpoint(none as never, t, true),
    (e: ResolveError) =>
      e.reason === 'MissingEndpoints' && e.message === 'endpoints for service/s in "ns" have no addresses with port name "https"',
  );
  const missing = { service: async () => undefined, endpoints: async () => undefined };
  await assert.rejects(resolveEndpoint(missing, t, true), (e: ResolveError) => e.reason === 'ServiceNotFound');
});
