/** Discovery documents: /api, /api/v1, /apis, /apis/<group>, /apis/<group>/<version>, from the resource table. */
import { createHash } from 'node:crypto';
import type { ResourceTable, GroupVersions } from '../api/resource-table.js';
import type { ResourceDef } from '../api/resource.js';
import { apiVersionOf } from '../api/object.js';

export interface ApiResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  kind: string;
  group?: string;
  version?: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

function groupDoc(g: GroupVersions) {
  return {
    name: g.group,
    versions: g.versions.map((v) => ({ groupVersion: apiVersionOf(g.group, v), version: v })),
    preferredVersion: { groupVersion: apiVersionOf(g.group, g.preferredVersion), version: g.preferredVersion },
  };
}

export function apiVersions(table: ResourceTable, serverAddress: string) {
  const core = table.groups().find((g) => g.group === '');
  return {
    kind: 'APIVersions',
    versions: core?.versions ?? [],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

/** /apis: the groups given (the table's, merged with the aggregation layer's), the legacy core group aside. */
export function apiGroupList(groups: readonly GroupVersions[]) {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groups.filter((g) => g.group !== '').map(groupDoc),
  };
}

export function apiGroup(groups: readonly GroupVersions[], group: string) {
  const g = groups.find((x) => x.group === group && group !== '');
  return g && { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(g) };
}

/**
 * Kubernetes' storageVersionHash: the first 8 bytes of SHA-256("<group>/<version>/<kind>") of the stored
 * form, base64 — equal for kinds that share storage (events.<domain>/v1 Event and core Event).
 */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

function storedAs(table: ResourceTable, d: ResourceDef): { group: string; version: string; kind: string } | undefined {
  if (d.notStored || d.ephemeral) return undefined;
  const storage = d.conversion?.storage;
  return storage ? { group: table.domain.group(storage.kubernetesGroup), version: storage.version, kind: storage.kind } : d;
}

/** One resource entry, with Kubernetes' fields in Kubernetes' order. */
function entry(
  name: string,
  d: ResourceDef,
  kind: string,
  verbs: readonly string[],
  other?: { group: string; version: string },
  stored?: { group: string; version: string; kind: string },
): ApiResource {
  const r: ApiResource = { name, singularName: other || name.includes('/') ? '' : d.singular, namespaced: d.namespaced } as ApiResource;
  if (other) Object.assign(r, { group: other.group, version: other.version });
  Object.assign(r, { kind, verbs: [...verbs] });
  if (!name.includes('/')) {
    if (d.shortNames?.length) r.shortNames = d.shortNames;
    if (d.categories?.length) r.categories = d.categories;
    if (stored) r.storageVersionHash = storageVersionHash(stored.group, stored.version, stored.kind);
  }
  return r;
}

export function apiResourceList(table: ResourceTable, group: string, version: string) {
  const defs = table.inGroupVersion(group, version);
  if (defs.length === 0) return undefined;
  const resources: ApiResource[] = [];
  for (const d of defs) {
    resources.push(entry(d.plural, d, d.kind, d.verbs, undefined, storedAs(table, d)));
    for (const [sub, strategy] of Object.entries(d.subresources ?? {})) {
      // A subresource served as another kind names its group and version (deployments/scale: autoscaling/v1 Scale,
      // pods/eviction: policy/v1 Eviction); one of the resource's own group names only its kind (pods/binding: Binding).
      const other = strategy.view ?? strategy.action;
      const foreign = other && other.group !== d.kubernetesGroup ? other : undefined;
      const kind = strategy.connect ? (strategy.connect.discoveryKind ?? strategy.connect.kind) : (other?.kind ?? d.kind);
      resources.push(entry(`${d.plural}/${sub}`, d, kind, strategy.verbs ?? ['get', 'patch', 'update'], foreign));
    }
    for (const [sub, kind] of Object.entries(d.createSubresources ?? {})) {
      resources.push({
        name: `${d.plural}/${sub}`,
        singularName: '',
        namespaced: d.namespaced,
        group: table.domain.group(kind.kubernetesGroup),
        version: kind.version,
        kind: kind.kind,
        verbs: ['create'],
      });
    }
  }
  resources.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf(group, version), resources };
}
