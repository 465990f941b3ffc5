import type { ApiDomain } from './domain.js';
import type { ResourceDeclaration, ResourceDef } from './resource.js';
import { ALL_VERBS } from './resource.js';
import { apiVersionOf } from './object.js';

export interface GroupVersions {
  group: string;
  versions: string[];
  preferredVersion: string;
}

/** Every served resource with the domain applied, and the look-ups the server needs. */
export interface ResourceTable {
  readonly domain: ApiDomain;
  all(): readonly ResourceDef[];
  /** By group, version and plural name. */
  lookup(group: string, version: string, plural: string): ResourceDef | undefined;
  /** By group and kind (any version; the first declared). */
  byKind(group: string, kind: string): ResourceDef | undefined;
  /** Served groups in declaration order, the core group ('') included. */
  groups(): GroupVersions[];
  /** Resources of one group version. */
  inGroupVersion(group: string, version: string): ResourceDef[];
}

export function newResourceTable(domain: ApiDomain, declarations: readonly ResourceDeclaration[]): ResourceTable {
  return tableOf(
    domain,
    declarations.map((d) => {
      const group = domain.group(d.kubernetesGroup);
      return {
        ...d,
        group,
        apiVersion: apiVersionOf(group, d.version),
        listKind: `${d.kind}List`,
        verbs: d.verbs ?? ALL_VERBS,
        schemaRef: { $ref: `#/definitions/${d.schema}` },
      };
    }),
  );
}

/** The same resources (the same ResourceDef objects) restricted to those `served` keeps (--runtime-config). */
export function restrictTable(table: ResourceTable, served: (def: ResourceDef) => boolean): ResourceTable {
  return tableOf(table.domain, table.all().filter(served));
}

function tableOf(domain: ApiDomain, defs: ResourceDef[]): ResourceTable {
  const byPath = new Map(defs.map((d) => [`${d.group}/${d.version}/${d.plural}`, d]));
  const groups: GroupVersions[] = [];
  for (const d of defs) {
    let g = groups.find((x) => x.group === d.group);
    if (!g) groups.push((g = { group: d.group, versions: [], preferredVersion: d.version }));
    if (!g.versions.includes(d.version)) g.versions.push(d.version);
  }
  return {
    domain,
    all: () => defs,
    lookup: (group, version, plural) => byPath.get(`${group}/${version}/${plural}`),
    byKind: (group, kind) => defs.find((d) => d.group === group && d.kind === kind),
    groups: () => groups,
    inGroupVersion: (group, version) => defs.filter((d) => d.group === group && d.version === version),
  };
}
