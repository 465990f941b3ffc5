import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newDefaultTolerationSeconds } from '../../../../apiserver/admission/plugins/default-toleration-seconds.js';
import { attrs, newEnv } from '../fixture.js';

const pod = (tolerations?: unknown[]) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers: [{ name: 'c', image: 'i' }], tolerations },
});

test('DefaultTolerationSeconds adds not-ready and unreachable NoExecute tolerations with the flags’ seconds', async () => {
  const p = newDefaultTolerationSeconds(
    newEnv(undefined, { flags: { defaultNotReadyTolerationSeconds: 60, defaultUnreachableTolerationSeconds: 120 } }),
    undefined,
  );
  const obj = pod();
  await p.admit!(attrs({ resource: 'pods', namespace: 'ns', object: obj }));
  assert.deepEqual(obj.spec.tolerations, [
    { key: 'node.orch.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
    { key: 'node.orch.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
  ]);
});

test('DefaultTolerationSeconds keeps tolerations the pod has: by key, by empty effect, or an empty key', async () => {
  const p = newDefaultTolerationSeconds(newEnv(), undefined);
  const own = { key: 'node.orch.io/not-ready', operator: 'Exists', tolerationSeconds: 5 };
  const obj = pod([own]);
  await p.admit!(attrs({ resource: 'pods', namespace: 'ns', object: obj }));
  assert.deepEqual(obj.spec.tolerations, [
    own,
    { key: 'node.orch.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ]);
  const all = pod([{ operator: 'Exists' }]);
  await p.admit!(attrs({ resource: 'pods', namespace: 'ns', object: all }));
  assert.deepEqual(all.spec.tolerations, [{ operator: 'Exists' }]);
  const status = pod();
  await p.admit!(attrs({ resource: 'pods', namespace: 'ns', object: status, subresource: 'status' }));
  assert.equal(status.spec.tolerations, undefined);
});
