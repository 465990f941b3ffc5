import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../apiserver/api/object.js';
import { formatQuantity } from '../../../apiserver/api/quantity.js';
import { countedResource, objectUsage, serviceNodePorts } from '../../../apiserver/api/quota-usage.js';
import { usageOf } from '../../../apiserver/admission/quota/usage.js';
import { serviceUsage, toJson } from '../../../controllers/resourcequota/quota-usage.js';

const svc = (spec: Record<string, unknown>): ApiObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec });
const ports = [{ port: 80 }, { port: 443, nodePort: 30443 }, { port: 8080 }];

describe('services.nodeports: one definition (services.go)', () => {
  it('a NodePort service uses one per port, allocated or not', () => {
    assert.equal(serviceNodePorts({ type: 'NodePort', ports }), 3);
  });
  it('a LoadBalancer uses one per port, unless it allocates none: then the ports that name one', () => {
    assert.equal(serviceNodePorts({ type: 'LoadBalancer', ports }), 3);
    assert.equal(serviceNodePorts({ type: 'LoadBalancer', ports, allocateLoadBalancerNodePorts: true }), 3);
    assert.equal(serviceNodePorts({ type: 'LoadBalancer', ports, allocateLoadBalancerNodePorts: false }), 1);
  });
  it('ClusterIP and ExternalName use none', () => {
    assert.equal(serviceNodePorts({ type: 'ClusterIP', ports }), 0);
    assert.equal(serviceNodePorts({ type: 'ExternalName', ports }), 0);
    assert.equal(serviceNodePorts(undefined), 0);
  });
  it('admission charges what the controller counts', () => {
    const keys = ['services', 'count/services', 'services.loadbalancers', 'services.nodeports'];
    for (const spec of [
      { type: 'NodePort', ports },
      { type: 'LoadBalancer', ports },
      { type: 'LoadBalancer', ports, allocateLoadBalancerNodePorts: false },
      { type: 'ClusterIP', ports },
    ]) {
      const charged = usageOf('', 'services', () => svc(spec), 'storage.orch.io');
      const counted = toJson(serviceUsage([svc(spec)]), keys);
      for (const k of keys) assert.equal(counted[k], charged[k] ?? '0', `${JSON.stringify(spec)}: ${k}`);
    }
  });
});

describe('object counts', () => {
  it('every resource counts as count/<resource>.<group>, core ones also by their legacy name', () => {
    const o = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } } as ApiObject;
    const json = (u: Map<string, unknown>) => Object.fromEntries([...u].map(([k, q]) => [k, formatQuantity(q as never)]));
    assert.deepEqual(json(objectUsage('example.com', 'widgets', () => o, '')), { 'count/widgets.example.com': '1' });
    assert.deepEqual(json(objectUsage('', 'serviceaccounts', () => o, '')), { 'count/serviceaccounts': '1' });
    assert.deepEqual(json(objectUsage('', 'configmaps', () => o, '')), { 'count/configmaps': '1', configmaps: '1' });
  });
  it('names the resource a quota name counts', () => {
    assert.deepEqual(countedResource('count/widgets.example.com'), { group: 'example.com', resource: 'widgets' });
    assert.deepEqual(countedResource('count/jobs.batch'), { group: 'batch', resource: 'jobs' });
    assert.deepEqual(countedResource('count/serviceaccounts'), { group: '', resource: 'serviceaccounts' });
    assert.deepEqual(countedResource('secrets'), { group: '', resource: 'secrets' });
    assert.equal(countedResource('requests.cpu'), undefined);
    assert.equal(countedResource('services.nodeports'), undefined);
  });
});
