import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newDefaultIngressClass } from '../../../../apiserver/admission/plugins/default-ingress-class.js';
import { INGRESS_CLASSES } from '../../../../apiserver/admission/resources.js';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import type { ApiError } from '../../../../apiserver/api/status.js';
import { attrs, newEnv, Objects, rejection } from '../fixture.js';

const ic = (name: string, created: string, isDefault: boolean, prefix = 'orch.io') => ({
  apiVersion: 'networking.orch.io/v1',
  kind: 'IngressClass',
  metadata: {
    name,
    creationTimestamp: created,
    annotations: (isDefault ? { [`ingressclass.${prefix}/is-default-class`]: 'true' } : {}) as Record<string, string>,
  },
  spec: {},
});
const ingress = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>) => ({
  apiVersion: 'networking.orch.io/v1',
  kind: 'Ingress',
  metadata: { name: 'i', namespace: 'ns', annotations },
  spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } }, ...spec },
});

const runner = (objects: Objects, domain = newEnv().domain) => {
  const p = newDefaultIngressClass(newEnv(objects, { domain }), undefined);
  return async (obj: ReturnType<typeof ingress>) => {
    await p.admit!(attrs({ group: 'networking.k8s.io', resource: 'ingresses', namespace: 'ns', object: obj }));
    return (obj.spec as { ingressClassName?: string }).ingressClassName;
  };
};

test('DefaultIngressClass names the default class; a named class or the legacy annotation is kept', async () => {
  const objects = new Objects();
  objects.put(INGRESS_CLASSES, ic('a', '2024-01-01T00:00:00Z', true));
  objects.put(INGRESS_CLASSES, ic('c', '2024-05-01T00:00:00Z', false));
  const run = runner(objects);
  assert.equal(await run(ingress()), 'a');
  assert.equal(await run(ingress({ ingressClassName: 'c' })), 'c');
  assert.equal(await run(ingress({}, { 'orch.io/ingress.class': 'nginx' })), undefined);
});

test('DefaultIngressClass with several defaults: refused in the default domain (the seed, Kubernetes < 1.26), the newest in k8s.io', async () => {
  const objects = new Objects();
  objects.put(INGRESS_CLASSES, ic('a', '2024-01-01T00:00:00Z', true));
  objects.put(INGRESS_CLASSES, ic('b', '2024-03-01T00:00:00Z', true));
  const run = runner(objects);
  const err = (await rejection(run(ingress()))) as ApiError;
  assert.equal(err.code, 403);
  assert.equal(err.status.reason, 'Forbidden');
  assert.equal(
    err.status.message,
    'ingresses.networking.orch.io "i" is forbidden: Internal error occurred: 2 default IngressClasses were found, only 1 allowed',
  );
  assert.deepEqual(err.status.details, { name: 'i', group: 'networking.orch.io', kind: 'ingresses' });
  assert.equal(await run(ingress({ ingressClassName: 'c' })), 'c');
  assert.equal(await run(ingress({}, { 'orch.io/ingress.class': 'nginx' })), undefined);

  const k = new Objects();
  k.put(INGRESS_CLASSES, ic('a', '2024-01-01T00:00:00Z', true, 'kubernetes.io'));
  k.put(INGRESS_CLASSES, ic('b', '2024-03-01T00:00:00Z', true, 'kubernetes.io'));
  assert.equal(await runner(k, newApiDomain('k8s.io'))(ingress()), 'b');
});
