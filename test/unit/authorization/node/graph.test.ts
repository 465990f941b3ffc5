import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeGraph, podReferences } from '../../../../apiserver/authorization/node/graph.js';

const pod = (name: string, node: string, spec: Record<string, unknown> = {}) => ({
  metadata: { namespace: 'ns', name },
  spec: { nodeName: node, containers: [{ name: 'c', image: 'i' }], ...spec },
});

test('node graph: what a pod references', () => {
  const refs = podReferences(
    pod('p', 'n1', {
      serviceAccountName: 'sa',
      imagePullSecrets: [{ name: 'pull' }],
      containers: [
        {
          name: 'c',
          env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'env-secret', key: 'k' } } }],
          envFrom: [{ configMapRef: { name: 'env-cm' } }],
        },
      ],
      volumes: [
        { name: 'v1', secret: { secretName: 'vol-secret' } },
        { name: 'v2', projected: { sources: [{ configMap: { name: 'proj-cm' } }] } },
        { name: 'v3', persistentVolumeClaim: { claimName: 'claim' } },
        { name: 'v4', ephemeral: { volumeClaimTemplate: {} } },
        { name: 'v5', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi-secret' } } },
      ],
    }),
  );
  assert.deepEqual(refs.sort(), [
    'configmap/ns/env-cm',
    'configmap/ns/proj-cm',
    'persistentvolumeclaim/ns/claim',
    'persistentvolumeclaim/ns/p-v4',
    'secret/ns/csi-secret',
    'secret/ns/env-secret',
    'secret/ns/pull',
    'secret/ns/vol-secret',
    'serviceaccount/ns/sa',
  ]);
  assert.deepEqual(podReferences({ metadata: { namespace: 'ns', name: 'q' }, spec: {} }), ['serviceaccount/ns/default']);
});

test('node graph: pods bind references to their node; claims bind volumes; removal unbinds', () => {
  const g = new NodeGraph();
  const withSecret = (name: string, node: string) =>
    pod(name, node, {
      volumes: [
        { name: 'v', secret: { secretName: 's' } },
        { name: 'd', persistentVolumeClaim: { claimName: 'c' } },
      ],
    });
  g.putPod(withSecret('a', 'n1'));
  g.putPod(withSecret('b', 'n1'));
  g.putPod(pod('unscheduled', ''));
  g.putClaim({ metadata: { namespace: 'ns', name: 'c' }, spec: { volumeName: 'pv1' } });
  assert.ok(g.reaches('n1', 'secret', 'ns', 's'));
  assert.ok(!g.reaches('n2', 'secret', 'ns', 's'));
  assert.ok(!g.reaches('n1', 'secret', 'other', 's'));
  assert.ok(g.reaches('n1', 'persistentvolume', '', 'pv1'));
  g.removePod(withSecret('a', 'n1'));
  assert.ok(g.reaches('n1', 'secret', 'ns', 's'), 'pod b still references it');
  g.putPod(withSecret('b', 'n2'));
  assert.ok(!g.reaches('n1', 'secret', 'ns', 's'));
  assert.ok(g.reaches('n2', 'persistentvolume', '', 'pv1'));
  g.removeClaim({ metadata: { namespace: 'ns', name: 'c' } });
  assert.ok(!g.reaches('n2', 'persistentvolume', '', 'pv1'));
  g.replacePods([]);
  assert.ok(!g.reaches('n2', 'secret', 'ns', 's'));
});
