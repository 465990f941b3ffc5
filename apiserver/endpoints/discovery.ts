/** Discovery documents: /api, /api/v1, /apis, /apis/<group>, /apis/<group>/<version>, from the resource table. */
import type { ResourceTable, GroupVersions } from '../api/resource-table.js';
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

export function apiGroupList(table: ResourceTable) {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: table
      .groups()
      .filter((g) => g.group !== '')
      .map(groupDoc),
  };
}

export function apiGroup(table: ResourceTable, group: string) {
  const g = table.groups().find((x) => x.group === group && group !== '');
  return g && { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(g) };
}

export function apiResourceList(table: ResourceTable, group: string, version: string) {
  const defs = table.inGroupVersion(group, version);
  if (defs.length === 0) return undefined;
  const resources: ApiResource[] = [];
  for (const d of defs) {
    const r: ApiResource = { name: d.plural, singularName: d.singular, namespaced: d.namespaced, kind: d.kind, verbs: [...d.verbs] };
    if (d.shortNames?.length) r.shortNames = d.shortNames;
    if (d.categories?.length) r.categories = d.categories;
    resources.push(r);
    for (const [sub, strategy] of Object.entries(d.subresources ?? {})) {
      const r: ApiResource = {
        name: `${d.plural}/${sub}`,
        singularName: '',
        namespaced: d.namespaced,
        kind: d.kind,
        verbs: ['get', 'patch', 'update'],
      };
      // A subresource served as another kind names its group and version (deployments/scale: autoscaling/v1 Scale).
      if (strategy.view) Object.assign(r, { group: strategy.view.group, version: strategy.view.version, kind: strategy.view.kind });
      resources.push(r);
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
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf(group, version), resources };
}
