/** The StatefulSet table, as Kubernetes' printStatefulSet fills it. */
import type { StatefulSet } from '../../../api/generated/types.js';
import { workloadColumns } from '../../shared/workload/columns.js';

export const statefulSetColumns = workloadColumns<StatefulSet>({
  counts: [
    {
      name: 'Ready',
      description: 'Number of the pod with ready state',
      cell: (o) => `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`,
    },
  ],
  template: (o) => o.spec?.template,
});
