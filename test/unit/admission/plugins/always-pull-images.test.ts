import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newAlwaysPullImages } from '../../../../apiserver/admission/plugins/always-pull-images.js';
import { attrs, newEnv, rejection } from '../fixture.js';
import { pod } from './pod-fixture.js';

const p = newAlwaysPullImages(newEnv(), undefined);

test('AlwaysPullImages sets Always on every container, init and ephemeral included', async () => {
  const obj = pod({
    initContainers: [{ name: 'i', image: 'busybox', imagePullPolicy: 'IfNotPresent' }],
    containers: [{ name: 'c', image: 'nginx', imagePullPolicy: 'Never' }],
  });
  await p.admit!(attrs({ resource: 'pods', namespace: 'ns', object: obj }));
  const policies = [...(obj.spec.initContainers as { imagePullPolicy: string }[]), ...obj.spec.containers].map((c) => c.imagePullPolicy);
  assert.deepEqual(policies, ['Always', 'Always']);
  await p.validate!(attrs({ resource: 'pods', namespace: 'ns', object: obj }));
});

test('AlwaysPullImages refuses a pod that still has another policy; an update without new images is left alone', async () => {
  const bad = pod({ containers: [{ name: 'c', image: 'nginx', imagePullPolicy: 'IfNotPresent' }] });
  const err = await rejection(p.validate!(attrs({ resource: 'pods', namespace: 'ns', object: bad })));
  assert.equal(err.code, 403);
  assert.equal(
    err.status.message,
    'pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always"',
  );
  const old = pod({ containers: [{ name: 'c', image: 'nginx', imagePullPolicy: 'IfNotPresent' }] });
  const same = pod({ containers: [{ name: 'c', image: 'nginx', imagePullPolicy: 'IfNotPresent' }] });
  await p.admit!(attrs({ operation: 'UPDATE', resource: 'pods', namespace: 'ns', object: same, oldObject: old }));
  assert.equal(same.spec.containers[0].imagePullPolicy, 'IfNotPresent');
  await p.validate!(attrs({ operation: 'UPDATE', resource: 'pods', namespace: 'ns', object: same, oldObject: old }));
  const newer = pod({ containers: [{ name: 'c', image: 'nginx:2', imagePullPolicy: 'IfNotPresent' }] });
  await p.admit!(attrs({ operation: 'UPDATE', resource: 'pods', namespace: 'ns', object: newer, oldObject: old }));
  assert.equal(newer.spec.containers[0].imagePullPolicy, 'Always');
});
