import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPodNodeSelector } from '../../../../apiserver/admission/plugins/pod-node-selector.js';
import { NAMESPACES } from '../../../../apiserver/admission/resources.js';
import { attrs, newEnv, Objects, rejection } from '../fixture.js';
import { pod } from './pod-fixture.js';

const objects = new Objects();
objects.put(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'plain' } });
objects.put(NAMESPACES, {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'gpu', annotations: { 'scheduler.alpha.orch.io/node-selector': 'hw=gpu' } },
});
const config = { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'env=prod', gpu: 'hw=gpu,zone=a' } };
const p = newPodNodeSelector(newEnv(objects), config);
const a = (ns: string, obj: ReturnType<typeof pod>) => attrs({ resource: 'pods', namespace: ns, object: obj });

test('PodNodeSelector merges the namespace annotation, else the cluster default, into the pod’s selector', async () => {
  const inPlain = pod({ nodeSelector: { disk: 'ssd' } }, 'plain');
  await p.admit!(a('plain', inPlain));
  assert.deepEqual(inPlain.spec.nodeSelector, { env: 'prod', disk: 'ssd' });
  const inGpu = pod({ nodeSelector: { zone: 'a' } }, 'gpu');
  await p.admit!(a('gpu', inGpu));
  assert.deepEqual(inGpu.spec.nodeSelector, { hw: 'gpu', zone: 'a' });
  await p.validate!(a('gpu', inGpu));
});

test('PodNodeSelector refuses a conflict with the namespace selector and labels outside its whitelist', async () => {
  const conflict = await rejection(p.admit!(a('gpu', pod({ nodeSelector: { hw: 'cpu' } }, 'gpu'))));
  assert.equal(conflict.status.message, 'pods "p" is forbidden: pod node label selector conflicts with its namespace node label selector');
  const outside = await rejection(p.admit!(a('gpu', pod({ nodeSelector: { zone: 'b' } }, 'gpu'))));
  assert.equal(outside.status.message, 'pods "p" is forbidden: pod node label selector labels conflict with its namespace whitelist');
});

test('PodNodeSelector refuses a configuration that is not a map of selectors', () => {
  assert.throws(() => newPodNodeSelector(newEnv(), { podNodeSelectorPluginConfig: { a: 1 } }), /must map names to selector strings/);
  assert.throws(() => newPodNodeSelector(newEnv(), { podNodeSelectorPluginConfig: { a: 'x in (y)' } }), /invalid selector/);
});
