import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceDef } from '../../../apiserver/api/resource.js';
import type { GenericStore } from '../../../apiserver/registry/generic/store.js';
import { newStorageMetricSources } from '../../../apiserver/server/storage-metrics.js';

/** Stores whose keys live under the given roots (below the storage prefix /registry). */
function stores(roots: Record<string, Partial<ResourceDef>>): () => ReadonlyMap<ResourceDef, GenericStore> {
  const map = new Map<ResourceDef, GenericStore>();
  for (const [root, def] of Object.entries(roots)) {
    map.set(def as ResourceDef, { keys: { listPrefix: () => `/registry/${root}/` } } as unknown as GenericStore);
  }
  return () => map;
}

describe('storage metric sources', () => {
  const sources = newStorageMetricSources(
    '/registry',
    stores({ configmaps: {}, 'apps/deployments': {}, namespaces: {}, 'apps/replicasets': { notStored: true } }),
  );

  it('labels a key with its resource: core by name, a group resource as resource.group', () => {
    assert.equal(sources.typeOf('/registry/configmaps/ns/cm'), 'configmaps');
    assert.equal(sources.typeOf('/registry/namespaces/default'), 'namespaces');
    assert.equal(sources.typeOf('/registry/apps/deployments/ns/web'), 'deployments.apps');
  });

  it("labels '' what no stored resource holds: other prefixes, unknown roots, kinds not stored", () => {
    assert.equal(sources.typeOf('/other/configmaps/ns/cm'), '');
    assert.equal(sources.typeOf('/registry/ranges/serviceips'), '');
    assert.equal(sources.typeOf('/registry/apps/replicasets/ns/rs'), '');
    assert.equal(sources.typeOf('/registry/configmaps'), '');
  });
});
