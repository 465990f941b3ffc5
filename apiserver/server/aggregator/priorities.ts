/**
 * The priorities of the local APIServices kube-apiserver registers for its own groups (group priority
 * minimum, version priority; a CRD's are 1000 and 100), and kube-aggregator's ordering of APIServices:
 * groups by their highest groupPriorityMinimum, then by name; versions of a group by versionPriority,
 * then kube-aware (GA before beta before alpha, higher numbers first).
 */
import type { APIService } from '../../api/generated/types.js';
import { compareKubeVersions } from '../../api/resource-table.js';

export interface Priority {
  group: number;
  version: number;
}

/** kube-apiserver 1.28's apiVersionPriorities, by Kubernetes group name and version. */
const BUILT_IN: Record<string, Priority> = {
  '/v1': { group: 18000, version: 1 },
  'apiregistration.k8s.io/v1': { group: 18000, version: 15 },
  'apps/v1': { group: 17800, version: 15 },
  'events.k8s.io/v1': { group: 17750, version: 15 },
  'authentication.k8s.io/v1': { group: 17700, version: 15 },
  'authentication.k8s.io/v1beta1': { group: 17700, version: 9 },
  'authorization.k8s.io/v1': { group: 17600, version: 15 },
  'autoscaling/v1': { group: 17500, version: 15 },
  'autoscaling/v2': { group: 17500, version: 30 },
  'batch/v1': { group: 17400, version: 15 },
  'certificates.k8s.io/v1': { group: 17300, version: 15 },
  'networking.k8s.io/v1': { group: 17200, version: 15 },
  'policy/v1': { group: 17100, version: 15 },
  'rbac.authorization.k8s.io/v1': { group: 17000, version: 15 },
  'storage.k8s.io/v1': { group: 16800, version: 15 },
  'apiextensions.k8s.io/v1': { group: 16700, version: 15 },
  'admissionregistration.k8s.io/v1': { group: 16700, version: 15 },
  'scheduling.k8s.io/v1': { group: 16600, version: 15 },
  'coordination.k8s.io/v1': { group: 16500, version: 15 },
  'node.k8s.io/v1': { group: 16300, version: 15 },
  'discovery.k8s.io/v1': { group: 16200, version: 15 },
  'flowcontrol.apiserver.k8s.io/v1beta3': { group: 16100, version: 18 },
  'flowcontrol.apiserver.k8s.io/v1beta2': { group: 16100, version: 15 },
};

/** A custom resource group's APIService (crdregistration): low, below every built-in group. */
export const CUSTOM_RESOURCE_PRIORITY: Priority = { group: 1000, version: 100 };

/** The group kube-aggregator serves itself, always first in /apis. */
export const AGGREGATOR_GROUP = 'apiregistration.k8s.io';

/** The priority of a built-in group version, by its Kubernetes group name; a group not listed gets a CRD's. */
export function builtInPriority(kubernetesGroup: string, version: string): Priority {
  return BUILT_IN[`${kubernetesGroup}/${version}`] ?? CUSTOM_RESOURCE_PRIORITY;
}

/** The APIServices grouped by group, groups and versions in kube-aggregator's order (SortedByGroupAndVersion). */
export function sortedByGroupAndVersion(services: readonly APIService[]): APIService[][] {
  const byGroup = new Map<string, APIService[]>();
  for (const s of services) {
    const group = s.spec?.group ?? '';
    const list = byGroup.get(group) ?? [];
    list.push(s);
    byGroup.set(group, list);
  }
  const groupPriority = (list: APIService[]) => Math.max(...list.map((s) => s.spec?.groupPriorityMinimum ?? 0));
  const groups = [...byGroup.values()].sort((a, b) => {
    const d = groupPriority(b) - groupPriority(a);
    if (d !== 0) return d;
    const [ga, gb] = [a[0].spec?.group ?? '', b[0].spec?.group ?? ''];
    return ga < gb ? -1 : ga > gb ? 1 : 0;
  });
  for (const list of groups) {
    list.sort((a, b) => {
      const d = (b.spec?.versionPriority ?? 0) - (a.spec?.versionPriority ?? 0);
      return d !== 0 ? d : compareKubeVersions(a.spec?.version ?? '', b.spec?.version ?? '');
    });
  }
  return groups;
}
