import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateAPIService, validateAPIServiceStatus } from '../../../../../apiserver/registry/apiregistration/apiservice/validation.js';
import type { APIService } from '../../../../../apiserver/api/generated/types.js';

const valid = (over: Partial<APIService['spec']> = {}, name = 'v1beta1.metrics.k8s.io'): APIService => ({
  metadata: { name },
  spec: {
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    groupPriorityMinimum: 100,
    versionPriority: 100,
    service: { namespace: 'kube-system', name: 'metrics-server', port: 443 },
    insecureSkipTLSVerify: true,
    ...over,
  },
});

const fields = (o: APIService) => validateAPIService(o).map((e) => `${e.field}: ${e.detail ?? ''}`);

test('a valid remote APIService passes', () => {
  assert.deepEqual(fields(valid()), []);
});

test('the name must be <version>.<group>', () => {
  assert.deepEqual(fields(valid({}, 'metrics')), ['metadata.name: must be `spec.version+"."+spec.group`: "v1beta1.metrics.k8s.io"']);
});

test('priorities in range', () => {
  assert.deepEqual(fields(valid({ groupPriorityMinimum: 20001, versionPriority: 0 })), [
    'spec.groupPriorityMinimum: must be positive and less than 20000',
    'spec.versionPriority: must be positive and less than 1000',
  ]);
});

test('only v1 may have an empty group; the version is a DNS-1035 label', () => {
  const o = valid({ group: '', version: 'V2' }, 'V2.');
  const got = fields(o);
  assert.ok(got.includes('spec.group: only v1 may have an empty group and it better be legacy kube'), got.join('\n'));
  assert.ok(got.some((f) => f.startsWith('spec.version: ')));
});

test('a local APIService may not have a caBundle or insecureSkipTLSVerify', () => {
  const o = valid({ service: undefined, caBundle: Buffer.from('abc').toString('base64') });
  assert.deepEqual(fields(o), [
    'spec.caBundle: local APIServices may not have a caBundle',
    'spec.insecureSkipTLSVerify: local APIServices may not have insecureSkipTLSVerify',
  ]);
});

test('a remote one needs namespace, name and a valid port, and not both caBundle and insecureSkipTLSVerify', () => {
  const o = valid({ service: { port: 70000 }, caBundle: 'eA==' });
  assert.deepEqual(fields(o), [
    'spec.service.namespace: ',
    'spec.service.name: ',
    'spec.service.port: port is not valid: must be between 1 and 65535, inclusive',
    'spec.insecureSkipTLSVerify: may not be true if caBundle is present',
  ]);
});

test('condition statuses are True, False or Unknown', () => {
  const o = valid();
  o.status = { conditions: [{ type: 'Available', status: 'Maybe' }] };
  assert.equal(validateAPIServiceStatus(o)[0]?.field, 'status.conditions[0].status');
});
