import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../apiserver/api/domain.js';
import type { ResourceDef } from '../../../apiserver/api/resource.js';
import { newResourceTable } from '../../../apiserver/api/resource-table.js';
import { allResources } from '../../../apiserver/registry/resources/index.js';
import type { GenericStore } from '../../../apiserver/registry/generic/store.js';
import { storeLookup } from '../../../apiserver/server/store-lookup.js';

const table = newResourceTable(newApiDomain(), allResources);
const secrets = table.lookup('', 'v1', 'secrets')!;
const priorityClasses = table.lookup('scheduling.orch.io', 'v1', 'priorityclasses')!;
// Stand-ins: the look-up only hands back what the map holds.
const secretStore = { name: 'secrets' } as unknown as GenericStore;
const priorityStore = { name: 'priorityclasses' } as unknown as GenericStore;

test('finds a store by Kubernetes group, as served under the domain', () => {
  const lookup = storeLookup(
    table,
    () =>
      new Map<ResourceDef, GenericStore>([
        [secrets, secretStore],
        [priorityClasses, priorityStore],
      ]),
  );
  assert.equal(lookup.store('', 'v1', 'secrets'), secretStore);
  assert.equal(lookup.store('scheduling.k8s.io', 'v1', 'priorityclasses'), priorityStore);
});

test('reads the stores at each call and names what it did not find', () => {
  let stores: Map<ResourceDef, GenericStore> | undefined;
  const lookup = storeLookup(table, () => stores);
  assert.throws(() => lookup.store('', 'v1', 'secrets'), /no store for \/v1\/secrets/);
  stores = new Map([[secrets, secretStore]]);
  assert.equal(lookup.store('', 'v1', 'secrets'), secretStore);
  assert.throws(() => lookup.store('', 'v1', 'nonesuch'), /no store for \/v1\/nonesuch/);
});
