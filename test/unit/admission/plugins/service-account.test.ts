import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newServiceAccount } from '../../../../apiserver/admission/plugins/service-account.js';
import { SERVICE_ACCOUNTS } from '../../../../apiserver/admission/resources.js';
import { attrs, newEnv, Objects, rejection } from '../fixture.js';
import { pod } from './pod-fixture.js';

function world(...accounts: Record<string, unknown>[]) {
  const objects = new Objects();
  for (const sa of accounts) objects.put(SERVICE_ACCOUNTS, { apiVersion: 'v1', kind: 'ServiceAccount', ...sa } as never);
  return newServiceAccount(newEnv(objects), undefined);
}
const a = (obj: ReturnType<typeof pod>) => attrs({ resource: 'pods', namespace: 'ns', object: obj });
type Spec = Record<string, unknown> & { containers: { volumeMounts?: unknown[] }[]; volumes?: { name: string }[] };

test('ServiceAccount: default account, the projected token volume mounted in every container, pull secrets copied', async () => {
  const p = world({ metadata: { name: 'default', namespace: 'ns' }, imagePullSecrets: [{ name: 'registry' }] });
  const obj = pod({
    initContainers: [{ name: 'init', image: 'i' }],
    containers: [
      { name: 'a', image: 'i' },
      { name: 'b', image: 'i', volumeMounts: [{ name: 'own', mountPath: '/var/run/secrets/orch.io/serviceaccount' }] },
    ],
    volumes: [{ name: 'own', emptyDir: {} }],
  });
  await p.admit!(a(obj));
  await p.validate!(a(obj));
  const spec = obj.spec as Spec;
  assert.equal(spec.serviceAccountName, 'default');
  assert.deepEqual(spec.imagePullSecrets, [{ name: 'registry' }]);
  const volume = spec.volumes!.find((v) => v.name.startsWith('orch-api-access-'))!;
  assert.match(volume.name, /^orch-api-access-[a-z0-9]{5}$/);
  assert.deepEqual(volume, {
    name: volume.name,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
        { configMap: { name: 'orch-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  });
  const mount = { name: volume.name, readOnly: true, mountPath: '/var/run/secrets/orch.io/serviceaccount' };
  assert.deepEqual((spec.initContainers as { volumeMounts: unknown[] }[])[0].volumeMounts, [mount]);
  assert.deepEqual(spec.containers[0].volumeMounts, [mount]);
  assert.equal(spec.containers[1].volumeMounts!.length, 1);
});

test('ServiceAccount: no token when the pod or the account opts out', async () => {
  const p = world(
    { metadata: { name: 'quiet', namespace: 'ns' }, automountServiceAccountToken: false },
    { metadata: { name: 'default', namespace: 'ns' } },
  );
  const byAccount = pod({ serviceAccountName: 'quiet' });
  await p.admit!(a(byAccount));
  assert.equal((byAccount.spec as Spec).volumes, undefined);
  const byPod = pod({ automountServiceAccountToken: false });
  await p.admit!(a(byPod));
  assert.equal((byPod.spec as Spec).volumes, undefined);
});

test('ServiceAccount: a missing account is a 403 (the default one after its retries)', async () => {
  const p = world();
  const err = await rejection(p.admit!(a(pod({ serviceAccountName: 'ghost' }))));
  assert.equal(err.code, 403);
  assert.equal(err.status.message, 'pods "p" is forbidden: error looking up service account ns/ghost: serviceaccount "ghost" not found');
  const started = Date.now();
  await rejection(p.admit!(a(pod())));
  assert.ok(Date.now() - started >= 900, 'the default account is retried');
});

test('ServiceAccount: enforce-mountable-secrets limits secret volumes, env references and pull secrets', async () => {
  const p = world({
    metadata: { name: 'strict', namespace: 'ns', annotations: { 'orch.io/enforce-mountable-secrets': 'true' } },
    secrets: [{ name: 'ok' }],
    imagePullSecrets: [{ name: 'pull' }],
  });
  const run = (spec: Record<string, unknown>) => p.validate!(a(pod({ serviceAccountName: 'strict', ...spec })));
  await run({ volumes: [{ name: 'v', secret: { secretName: 'ok' } }], imagePullSecrets: [{ name: 'pull' }] });
  assert.match(
    (await rejection(run({ volumes: [{ name: 'v', secret: { secretName: 'nope' } }] }))).status.message!,
    /volume with secret.secretName="nope" is not allowed because service account strict does not reference that secret/,
  );
  const env = [{ name: 'E', valueFrom: { secretKeyRef: { name: 'nope', key: 'k' } } }];
  assert.match(
    (await rejection(run({ containers: [{ name: 'c', image: 'i', env }] }))).status.message!,
    /container c with envVar E referencing secret.secretName="nope"/,
  );
  assert.match(
    (await rejection(run({ imagePullSecrets: [{ name: 'other' }] }))).status.message!,
    /imagePullSecrets\[0\].name="other" is not allowed/,
  );
});

test('ServiceAccount: mirror pods may not name an account or use secrets', async () => {
  const p = world();
  const mirror = (spec: Record<string, unknown>) => {
    const m = pod(spec);
    (m.metadata as { annotations?: Record<string, string> }).annotations = { 'orch.io/config.mirror': 'x' };
    return m;
  };
  const plain = mirror({});
  await p.admit!(a(plain));
  await p.validate!(a(plain));
  assert.equal((plain.spec as Spec).serviceAccountName, undefined);
  assert.match(
    (await rejection(p.validate!(a(mirror({ serviceAccountName: 'x' }))))).status.message!,
    /a mirror pod may not reference service accounts/,
  );
  assert.match(
    (await rejection(p.validate!(a(mirror({ volumes: [{ name: 'v', secret: { secretName: 's' } }] }))))).status.message!,
    /a mirror pod may not reference secrets/,
  );
});

test('ServiceAccount: a pod without containers, or with a volume without a name, is left to validation (it was a 500: containers not iterable)', async () => {
  const p = world({ metadata: { name: 'default', namespace: 'ns' } });
  const noContainers = pod({});
  delete (noContainers.spec as Record<string, unknown>).containers;
  await p.admit!(a(noContainers));
  await p.validate!(a(noContainers));
  assert.equal((noContainers.spec as Spec).volumes, undefined, 'no container, so no token to mount');
  const unnamed = pod({ volumes: [{ emptyDir: {} }] });
  await p.admit!(a(unnamed));
  assert.equal((unnamed.spec as Spec).volumes!.length, 2);
});
