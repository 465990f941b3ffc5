/** The Deployment table, as Kubernetes' printDeployment fills it. */
import type { Deployment } from '../../../api/generated/types.js';
import { selectorColumn } from '../../shared/pod-spec/template-columns.js';
import { workloadColumns } from '../../shared/workload/columns.js';

export const deploymentColumns = workloadColumns<Deployment>({
  counts: [
    {
      name: 'Ready',
      description: 'Number of the pod with ready state',
      cell: (o) => `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`,
    },
    {
      name: 'Up-to-date',
      description: 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
      cell: (o) => o.status?.updatedReplicas ?? 0,
    },
    {
      name: 'Available',
      description: 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
      cell: (o) => o.status?.availableReplicas ?? 0,
    },
  ],
  template: (o) => o.spec?.template,
  selector: selectorColumn<Deployment>(
    (o) => o.spec?.selector,
    'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
  ),
});
