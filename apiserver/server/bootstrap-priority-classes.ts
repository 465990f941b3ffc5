/** The built-in PriorityClasses every cluster has from its first start (Kubernetes' scheduling post-start hook). */
import type { ApiDomain } from '../api/domain.js';
import * as status from '../api/status.js';
import type { GenericStore } from '../registry/generic/store.js';
import { SYSTEM_PRIORITY_CLASSES } from '../registry/scheduling/priorityclass/strategy.js';
import { SYSTEM_USER } from './bootstrap-namespaces.js';

const DESCRIPTIONS: Record<string, string> = {
  'system-node-critical': 'Used for system critical pods that must not be moved from their current node.',
  'system-cluster-critical': 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
};

export async function ensureSystemPriorityClasses(priorityClasses: GenericStore, domain: ApiDomain): Promise<void> {
  for (const c of SYSTEM_PRIORITY_CLASSES) {
    try {
      await priorityClasses.create(
        { namespace: '', user: SYSTEM_USER, dryRun: false, now: new Date() },
        {
          apiVersion: `${domain.group('scheduling.k8s.io')}/v1`,
          kind: 'PriorityClass',
          metadata: { name: c.name },
          value: c.value,
          ...(c.globalDefault ? { globalDefault: true } : {}),
          description: DESCRIPTIONS[c.name],
        },
      );
    } catch (err) {
      if (!status.isApiError(err, 'AlreadyExists')) throw err;
    }
  }
}
