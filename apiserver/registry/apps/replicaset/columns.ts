/** The ReplicaSet table, as Kubernetes' printReplicaSet fills it. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { ReplicaSet } from '../../../api/generated/types.js';
import { selectorColumn, templateContainerColumns } from '../../shared/pod-spec/template-columns.js';

export const replicaSetColumns: PrinterColumn[] = [
  ...typedColumns<ReplicaSet>([
    {
      name: 'Desired',
      type: 'integer',
      description: 'Replicas is the number of desired replicas.',
      cell: (o) => o.spec?.replicas ?? 0,
    },
    {
      name: 'Current',
      type: 'integer',
      description: 'Replicas is the most recently observed number of replicas.',
      cell: (o) => o.status?.replicas ?? 0,
    },
    {
      name: 'Ready',
      type: 'integer',
      description: 'The number of ready replicas for this replica set.',
      cell: (o) => o.status?.readyReplicas ?? 0,
    },
  ]),
  AGE_COLUMN,
  ...templateContainerColumns<ReplicaSet>((o) => o.spec?.template),
  selectorColumn<ReplicaSet>((o) => o.spec?.selector, 'Selector is a label query over pods that should match the replica count.'),
];
