/** The Deployment table, as Kubernetes' printDeployment fills it. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { Deployment } from '../../../api/generated/types.js';
import { selectorColumn, templateContainerColumns } from '../../shared/pod-spec/template-columns.js';

export const deploymentColumns: PrinterColumn[] = [
  ...typedColumns<Deployment>([
    {
      name: 'Ready',
      type: 'string',
      description: 'Number of the pod with ready state',
      cell: (o) => `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`,
    },
    {
      name: 'Up-to-date',
      type: 'string',
      description: 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
      cell: (o) => o.status?.updatedReplicas ?? 0,
    },
    {
      name: 'Available',
      type: 'string',
      description: 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
      cell: (o) => o.status?.availableReplicas ?? 0,
    },
  ]),
  AGE_COLUMN,
  ...templateContainerColumns<Deployment>((o) => o.spec?.template),
  selectorColumn<Deployment>(
    (o) => o.spec?.selector,
    'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
  ),
];
