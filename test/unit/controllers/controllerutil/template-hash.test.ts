import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asDecoded, computeHash } from '../../../../controllers/controllerutil/template-hash.js';

const base = () => ({
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }] },
});

test('template hash: what Go decodes to the same struct hashes alike', () => {
  const plain = computeHash(base());
  const marshalled = base() as any;
  marshalled.metadata.creationTimestamp = null;
  marshalled.metadata.annotations = {};
  marshalled.spec.containers[0].resources = { limits: {}, claims: [] };
  marshalled.spec.containers[0].command = [];
  marshalled.spec.volumes = [{ name: 'v', ephemeral: { volumeClaimTemplate: { spec: { resources: {} } } } }];
  const withVolume = base() as any;
  withVolume.spec.volumes = [{ name: 'v', ephemeral: { volumeClaimTemplate: {} } }];
  assert.equal(computeHash(marshalled), computeHash(withVolume));
  delete marshalled.spec.volumes;
  assert.equal(computeHash(marshalled), plain);
  assert.equal(computeHash(marshalled, 1), computeHash(base(), 1));
});

test('template hash: an empty pointer struct (securityContext: {}) is not absent, as nil and &{} differ in Go', () => {
  const t = base() as any;
  t.spec.containers[0].securityContext = {};
  assert.notEqual(computeHash(t), computeHash(base()));
  assert.deepEqual((asDecoded(t) as any).spec.containers[0].securityContext, {});
  const labelled = base() as any;
  labelled.metadata.labels = { app: 'web', empty: '' };
  assert.notEqual(computeHash(labelled), computeHash(base()), 'map entries stay');
});
