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
  /** Served groups in declaration order, the core group ('') included; custom groups after, by name. */
  groups(): GroupVersions[];
  /** Resources of one group version. */
  inGroupVersion(group: string, version: string): ResourceDef[];
  /**
   * Serves the resources a custom resource definition brings (named by `owner`, the CRD's name) instead
   * of what it brought before; an empty list stops serving them. Look-ups see the change at once.
   */
  setCustom(owner: string, defs: readonly ResourceDef[]): void;
}

/** A declaration with the domain applied. */
export function resourceDef(domain: ApiDomain, d: ResourceDeclaration): ResourceDef {
  const group = domain.group(d.kubernetesGroup);
  return {
    ...d,
    group,
    apiVersion: apiVersionOf(group, d.version),
    listKind: `${d.kind}List`,
    verbs: d.verbs ?? ALL_VERBS,
    schemaRef: { $ref: `#/definitions/${d.schema}` },
  };
}

/**
 * Kubernetes' version priority (kube-aware sort): GA before beta before alpha, higher numbers first,
 * versions that do not look like Kubernetes versions last, by name.
 */
export function compareKubeVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return undefined;
    return { major: Number(m[1]), level: m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2, minor: Number(m[3] ?? 0) };
  };
  const pa = parse(a);
  const pb = parse(b);
  if (pa && pb) {
    if (pa.level !== pb.level) return pb.level - pa.level;
    if (pa.major !== pb.major) return pb.major - pa.major;
    return pb.minor - pa.minor;
  }
  if (pa) return -1;
  if (pb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function groupsOf(defs: readonly ResourceDef[]): GroupVersions[] {
  const groups: GroupVersions[] = [];
  for (const d of defs) {
    let g = groups.find((x) => x.group === d.group);
    if (!g) groups.push((g = { group: d.group, versions: [], preferredVersion: d.version }));
    if (!g.versions.includes(d.version)) g.versions.push(d.version);
  }
  return groups;
}

export function newResourceTable(domain: ApiDomain, declarations: readonly ResourceDeclaration[]): ResourceTable {
  const builtIn: ResourceDef[] = declarations.map((d) => resourceDef(domain, d));
  const builtInGroups = groupsOf(builtIn);
  const custom = new Map<string, readonly ResourceDef[]>();
  let defs: ResourceDef[] = builtIn;
  let groups: GroupVersions[] = builtInGroups;
  let byPath = new Map<string, ResourceDef>();
  const rebuild = () => {
    const customDefs = [...custom.values()].flat();
    defs = [...builtIn, ...customDefs];
    const customGroups = groupsOf(customDefs)
      .filter((g) => !builtInGroups.some((b) => b.group === g.group))
      .map((g) => {
        const versions = [...g.versions].sort(compareKubeVersions);
        return { group: g.group, versions, preferredVersion: versions[0] };
      })
      .sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
    groups = [...builtInGroups, ...customGroups];
    byPath = new Map(defs.map((d) => [`${d.group}/${d.version}/${d.plural}`, d]));
  };
  rebuild();
  return {
    domain,
    all: () => defs,
    lookup: (group, version, plural) => byPath.get(`${group}/${version}/${plural}`),
    byKind: (group, kind) => defs.find((d) => d.group === group && d.kind === kind),
    groups: () => groups,
    inGroupVersion: (group, version) => defs.filter((d) => d.group === group && d.version === version),
    setCustom(owner, ownerDefs) {
      if (ownerDefs.length) custom.set(owner, ownerDefs);
      else if (!custom.delete(owner)) return;
      rebuild();
    },
  };
}

/**
 * The same table (the same ResourceDef objects, custom resources included as they come and go) seen
 * through `served` (--runtime-config): routing, discovery and OpenAPI use this view, the stores the whole.
 */
export function restrictTable(table: ResourceTable, served: (def: ResourceDef) => boolean): ResourceTable {
  let seen: readonly ResourceDef[] | undefined;
  let defs: ResourceDef[] = [];
  let groups: GroupVersions[] = [];
  const view = () => {
    const all = table.all();
    if (all === seen) return defs;
    seen = all;
    defs = all.filter(served);
    groups = [];
    for (const g of table.groups()) {
      const versions = g.versions.filter((v) => defs.some((d) => d.group === g.group && d.version === v));
      if (!versions.length) continue;
      groups.push({ group: g.group, versions, preferredVersion: versions.includes(g.preferredVersion) ? g.preferredVersion : versions[0] });
    }
    return defs;
  };
  const keep = (d: ResourceDef | undefined) => (d && served(d) ? d : undefined);
  return {
    domain: table.domain,
    all: view,
    lookup: (group, version, plural) => keep(table.lookup(group, version, plural)),
    byKind: (group, kind) => view().find((d) => d.group === group && d.kind === kind),
    groups: () => {
      view();
      return groups;
    },
    inGroupVersion: (group, version) => view().filter((d) => d.group === group && d.version === version),
    setCustom: (owner, ownerDefs) => table.setCustom(owner, ownerDefs),
  };
}
