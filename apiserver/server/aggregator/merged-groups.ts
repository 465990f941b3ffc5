/**
 * The groups /apis and /apis/<group> list, merged as kube-aggregator lists them: its own group
 * (apiregistration) first, then every APIService's group by priority (groupPriorityMinimum, then
 * name), each group's versions by versionPriority then kube-aware order, the first version preferred.
 * A served group version with no APIService yet (the moment after start) counts with the priority it
 * will be registered with; the legacy core group is left out.
 */
import type { APIService } from '../../api/generated/types.js';
import type { GroupVersions } from '../../api/resource-table.js';
import { sortedByGroupAndVersion, type Priority } from './priorities.js';

export function mergedGroups(
  local: readonly GroupVersions[],
  services: readonly APIService[],
  priorityOf: (group: string, version: string) => Priority,
  aggregatorGroup: string,
): GroupVersions[] {
  const all = services.filter((s) => (s.spec?.group ?? '') !== '');
  const names = new Set(all.map((s) => s.metadata.name));
  for (const g of local) {
    if (g.group === '') continue;
    for (const version of g.versions) {
      if (names.has(`${version}.${g.group}`)) continue;
      const p = priorityOf(g.group, version);
      all.push({
        metadata: { name: `${version}.${g.group}` },
        spec: { group: g.group, version, groupPriorityMinimum: p.group, versionPriority: p.version },
      });
    }
  }
  const groups = sortedByGroupAndVersion(all).map((list) => {
    const versions = list.map((s) => s.spec?.version ?? '');
    return { group: list[0].spec?.group ?? '', versions, preferredVersion: versions[0] };
  });
  const own = groups.findIndex((g) => g.group === aggregatorGroup);
  if (own > 0) groups.unshift(...groups.splice(own, 1));
  return groups;
}
