import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newLimitRanger } from '../../../../apiserver/admission/plugins/limit-ranger.js';
import { LIMIT_RANGES } from '../../../../apiserver/admission/resources.js';
import { attrs, newEnv, Objects, rejection } from '../fixture.js';
import { pod } from './pod-fixture.js';

function world(limits: unknown[]) {
  const objects = new Objects();
  objects.put(LIMIT_RANGES, { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr', namespace: 'ns' }, spec: { limits } });
  return newLimitRanger(newEnv(objects), undefined);
}
const a = (obj: ReturnType<typeof pod>, operation: 'CREATE' | 'UPDATE' = 'CREATE') =>
  attrs({ operation, resource: 'pods', namespace: 'ns', object: obj, oldObject: operation === 'UPDATE' ? pod() : undefined });

test('LimitRanger gives containers the default limits and requests they lack, and says so in an annotation', async () => {
  const p = world([{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } }]);
  const obj = pod({
    initContainers: [{ name: 'init', image: 'i', resources: { limits: { cpu: '1' } } }],
    containers: [{ name: 'app', image: 'i' }],
  });
  await p.admit!(a(obj));
  assert.deepEqual(obj.spec.containers[0].resources, {
    limits: { cpu: '500m', memory: '256Mi' },
    requests: { cpu: '100m', memory: '128Mi' },
  });
  assert.deepEqual((obj.spec.initContainers as { resources: unknown }[])[0].resources, {
    limits: { cpu: '1', memory: '256Mi' },
    requests: { cpu: '100m', memory: '128Mi' },
  });
  assert.equal(
    (obj.metadata as { annotations?: Record<string, string> }).annotations?.['orch.io/limit-ranger'],
    'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; cpu, memory request for init container init; memory limit for init container init',
  );
  await p.validate!(a(obj));
});

test('LimitRanger enforces Container min, max and ratio with Kubernetes’ messages, all in one 403', async () => {
  const p = world([{ type: 'Container', min: { cpu: '100m' }, max: { memory: '1Gi' }, maxLimitRequestRatio: { cpu: '2' } }]);
  const obj = pod({
    containers: [{ name: 'app', image: 'i', resources: { requests: { cpu: '50m' }, limits: { cpu: '400m', memory: '2Gi' } } }],
  });
  const err = await rejection(p.validate!(a(obj)));
  assert.equal(err.code, 403);
  assert.equal(
    err.status.message,
    'pods "p" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum memory usage per Container is 1Gi, but limit is 2Gi, cpu max limit to request ratio per Container is 2, but provided ratio is 8.000000]',
  );
  const missing = await rejection(p.validate!(a(pod())));
  assert.match(missing.status.message!, /minimum cpu usage per Container is 100m. {2}No request is specified/);
  assert.match(missing.status.message!, /maximum memory usage per Container is 1Gi. {2}No limit is specified/);
});

test('LimitRanger sums a pod’s containers for Pod items (init containers at their peak)', async () => {
  const p = world([{ type: 'Pod', max: { cpu: '1' } }]);
  const two = (cpu: string) => ({ name: `c${cpu}`, image: 'i', resources: { requests: { cpu }, limits: { cpu } } });
  await p.validate!(a(pod({ containers: [two('400m'), two('500m')], initContainers: [{ ...two('900m'), name: 'init' }] })));
  const err = await rejection(p.validate!(a(pod({ containers: [two('400m'), two('700m')] }))));
  assert.equal(err.status.message, 'pods "p" is forbidden: maximum cpu usage per Pod is 1, but limit is 1100m');
});

test('LimitRanger bounds claims’ storage requests and leaves pod updates alone', async () => {
  const p = world([{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }]);
  const claim = (storage: string) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'c', namespace: 'ns' },
    spec: { resources: { requests: { storage } } },
  });
  await p.validate!(attrs({ resource: 'persistentvolumeclaims', namespace: 'ns', object: claim('5Gi') }));
  const small = await rejection(p.validate!(attrs({ resource: 'persistentvolumeclaims', namespace: 'ns', object: claim('500Mi') })));
  assert.equal(
    small.status.message,
    'persistentvolumeclaims "c" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi',
  );
  const big = await rejection(p.validate!(attrs({ resource: 'persistentvolumeclaims', namespace: 'ns', object: claim('20Gi') })));
  assert.match(big.status.message!, /maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi/);
  const strict = world([{ type: 'Container', min: { cpu: '1' } }]);
  await strict.validate!(a(pod(), 'UPDATE'));
});
