import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPodTolerationRestriction } from '../../../../apiserver/admission/plugins/pod-toleration-restriction.js';
import { NAMESPACES } from '../../../../apiserver/admission/resources.js';
import { attrs, newEnv, Objects, rejection } from '../fixture.js';
import { pod } from './pod-fixture.js';

const objects = new Objects();
objects.put(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'plain' } });
objects.put(NAMESPACES, {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: {
    name: 'team',
    annotations: {
      'scheduler.alpha.orch.io/defaultTolerations': JSON.stringify([{ key: 'team', operator: 'Equal', value: 'a', effect: 'NoSchedule' }]),
      'scheduler.alpha.orch.io/tolerationsWhitelist': JSON.stringify([{ key: 'team', operator: 'Exists' }]),
    },
  },
});
const config = {
  apiVersion: 'podtolerationrestriction.admission.k8s.io/v1alpha1',
  kind: 'Configuration',
  default: [{ key: 'cluster', operator: 'Exists', effect: 'NoSchedule' }],
  whitelist: [
    { key: 'cluster', operator: 'Exists' },
    { key: 'node.orch.io/memory-pressure', operator: 'Exists' },
  ],
};
const p = newPodTolerationRestriction(newEnv(objects), config);
const a = (ns: string, obj: ReturnType<typeof pod>) => attrs({ resource: 'pods', namespace: ns, object: obj });

test('PodTolerationRestriction adds the namespace’s default tolerations, else the configuration’s', async () => {
  const t = pod({}, 'team');
  await p.admit!(a('team', t));
  assert.deepEqual(t.spec.tolerations, [{ key: 'team', operator: 'Equal', value: 'a', effect: 'NoSchedule' }]);
  const c = pod({}, 'plain');
  await p.admit!(a('plain', c));
  assert.deepEqual(c.spec.tolerations, [{ key: 'cluster', operator: 'Exists', effect: 'NoSchedule' }]);
});

test('PodTolerationRestriction adds a memory-pressure toleration to pods that are not BestEffort', async () => {
  const burstable = pod({ containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '100m' } } }] }, 'plain');
  await p.admit!(a('plain', burstable));
  assert.deepEqual(burstable.spec.tolerations, [
    { key: 'cluster', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.orch.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  ]);
});

test('PodTolerationRestriction refuses tolerations outside the namespace whitelist, else the cluster’s', async () => {
  const ns = await rejection(p.admit!(a('team', pod({ tolerations: [{ key: 'other', operator: 'Exists' }] }, 'team'))));
  assert.match(ns.status.message!, /conflict with its namespace whitelist$/);
  const cluster = await rejection(p.validate!(a('plain', pod({ tolerations: [{ key: 'other', operator: 'Exists' }] }, 'plain'))));
  assert.match(cluster.status.message!, /conflict with its cluster whitelist$/);
  await p.validate!(a('plain', pod({ tolerations: [{ key: 'cluster', operator: 'Equal', value: 'x' }] }, 'plain')));
});
