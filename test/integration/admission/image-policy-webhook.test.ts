/** ImagePolicyWebhook against a real HTTPS image policy backend with its own CA, named by a kubeconfig. */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newImagePolicyWebhook } from '../../../apiserver/admission/plugins/image-policy-webhook.js';
import { startWebhookServer, type WebhookServer } from '../../support/webhook-server.js';
import { attrs, newEnv, rejection } from '../../unit/admission/fixture.js';

const pod = (image: string, annotations: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns', annotations },
  spec: { containers: [{ name: 'c', image }] },
});

describe('ImagePolicyWebhook', () => {
  let backend: WebhookServer;
  let kubeconfig: string;
  const dir = mkdtempSync(join(tmpdir(), 'orch-imagepolicy-'));
  const config = (extra: Record<string, unknown> = {}) => ({
    imagePolicy: { kubeConfigFile: kubeconfig, allowTTL: 50, denyTTL: 50, retryBackoff: 10, ...extra },
  });

  before(async () => {
    backend = await startWebhookServer((review) => {
      const spec = (review as unknown as { spec: { containers: { image: string }[] } }).spec;
      const bad = spec.containers.find((c) => c.image.startsWith('evil/'));
      return {
        raw: JSON.stringify({
          apiVersion: 'imagepolicy.orch.io/v1alpha1',
          kind: 'ImageReview',
          status: bad ? { allowed: false, reason: `${bad.image} is not signed` } : { allowed: true },
        }),
      };
    });
    kubeconfig = join(dir, 'backend.kubeconfig');
    writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: policy\n  cluster:\n    server: ${backend.url('/review')}\n    certificate-authority-data: ${backend.caBundle}\n`,
    );
  });
  after(() => backend?.close());

  it('asks the backend over TLS with the images, namespace and image-policy annotations; refuses what it denies', async () => {
    const p = newImagePolicyWebhook(newEnv(), config());
    await p.admit!(
      attrs({ resource: 'pods', namespace: 'ns', object: pod('nginx', { 'mycluster.image-policy.orch.io/ticket': '1234', other: 'x' }) }),
    );
    assert.deepEqual((backend.reviews.at(-1) as unknown as { apiVersion: string; spec: unknown }).spec, {
      containers: [{ image: 'nginx' }],
      annotations: { 'mycluster.image-policy.orch.io/ticket': '1234' },
      namespace: 'ns',
    });
    const err = await rejection(p.admit!(attrs({ resource: 'pods', namespace: 'ns', object: pod('evil/miner') })));
    assert.equal(
      err.status.message,
      'pods "p" is forbidden: image policy webhook backend denied one or more images: evil/miner is not signed',
    );
    // Answers are cached for their TTL.
    const calls = backend.reviews.length;
    await rejection(p.admit!(attrs({ resource: 'pods', namespace: 'ns', object: pod('evil/miner') })));
    assert.equal(backend.reviews.length, calls);
  });

  it('a backend that cannot be reached refuses, or admits with the failed-open mark under defaultAllow', async () => {
    const deadConfig = join(dir, 'dead.kubeconfig');
    writeFileSync(
      deadConfig,
      `clusters:\n- cluster:\n    server: https://127.0.0.1:1/review\n    certificate-authority-data: ${backend.caBundle}\n`,
    );
    const closed = newImagePolicyWebhook(newEnv(), config({ kubeConfigFile: deadConfig }));
    const err = await rejection(closed.admit!(attrs({ resource: 'pods', namespace: 'ns', object: pod('nginx') })));
    assert.match(err.status.message!, /pods "p" is forbidden: Post "https:\/\/127.0.0.1:1\/review": connect ECONNREFUSED/);
    const open = newImagePolicyWebhook(newEnv(), config({ kubeConfigFile: deadConfig, defaultAllow: true }));
    const obj = pod('nginx');
    await open.admit!(attrs({ resource: 'pods', namespace: 'ns', object: obj }));
    assert.equal(obj.metadata.annotations['alpha.image-policy.orch.io/failed-open'], 'true');
  });

  it('refuses a configuration without a backend', () => {
    assert.throws(() => newImagePolicyWebhook(newEnv(), undefined), /imagePolicy: Required value/);
    assert.throws(() => newImagePolicyWebhook(newEnv(), { imagePolicy: {} }), /kubeConfigFile: Required value/);
  });
});
