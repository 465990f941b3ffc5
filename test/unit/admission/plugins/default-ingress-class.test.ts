import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newDefaultIngressClass } from '../../../../apiserver/admission/plugins/default-ingress-class.js';
import { INGRESS_CLASSES } from '../../../../apiserver/admission/resources.js';
import { attrs, newEnv, Objects } from '../fixture.js';

const ic = (name: string, created: string, isDefault: boolean) => ({
  apiVersion: 'networking.orch.io/v1',
  kind: 'IngressClass',
  metadata: {
    name,
    creationTimestamp: created,
    annotations: (isDefault ? { 'ingressclass.orch.io/is-default-class': 'true' } : {}) as Record<string, string>,
  },
  spec: {},
});
const ingress = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>) => ({
  apiVersion: 'networking.orch.io/v1',
  kind: 'Ingress',
  metadata: { name: 'i', namespace: 'ns', annotations },
  spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } }, ...spec },
});

test('DefaultIngressClass names the newest default class; a named class or the legacy annotation is kept', async () => {
  const objects = new Objects();
  objects.put(INGRESS_CLASSES, ic('a', '2024-01-01T00:00:00Z', true));
  objects.put(INGRESS_CLASSES, ic('b', '2024-03-01T00:00:00Z', true));
  objects.put(INGRESS_CLASSES, ic('c', '2024-05-01T00:00:00Z', false));
  const p = newDefaultIngressClass(newEnv(objects), undefined);
  const run = async (obj: ReturnType<typeof ingress>) => {
    await p.admit!(attrs({ group: 'networking.k8s.io', resource: 'ingresses', namespace: 'ns', object: obj }));
    return (obj.spec as { ingressClassName?: string }).ingressClassName;
  };
  assert.equal(await run(ingress()), 'b');
  assert.equal(await run(ingress({ ingressClassName: 'c' })), 'c');
  assert.equal(await run(ingress({}, { 'orch.io/ingress.class': 'nginx' })), undefined);
});
