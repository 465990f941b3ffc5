import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podSecretNames } from '../../../../controllers/serviceaccount/pod-secret-names.js';

test('a Pod references Secrets by pull secrets, volumes, env and envFrom', () => {
  const pod = {
    metadata: { name: 'p' },
    spec: {
      imagePullSecrets: [{ name: 'pull' }],
      initContainers: [{ name: 'i', envFrom: [{ secretRef: { name: 'init-env' } }] }],
      containers: [
        {
          name: 'c',
          env: [
            { name: 'X', valueFrom: { secretKeyRef: { name: 'env', key: 'k' } } },
            { name: 'Y', value: 'y' },
          ],
        },
      ],
      volumes: [
        { name: 'a', secret: { secretName: 'vol' } },
        { name: 'b', projected: { sources: [{ secret: { name: 'projected' } }, { configMap: { name: 'cm' } }] } },
        { name: 'c', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi' } } },
        { name: 'd', rbd: { image: 'i', monitors: ['m'], secretRef: { name: 'rbd' } } },
        { name: 'e', emptyDir: {} },
      ],
    },
  };
  assert.deepEqual([...podSecretNames(pod)].sort(), ['csi', 'env', 'init-env', 'projected', 'pull', 'rbd', 'vol']);
});
