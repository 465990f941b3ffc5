/** The ReplicationController table, as Kubernetes' printReplicationController fills it. */
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN, formatSelector } from '../../../api/printers/columns.js';
import type { ReplicationController } from '../../../api/generated/types.js';
import { typedColumns } from '../../../api/strategy.js';
import { templateContainerColumns } from '../../shared/pod-spec/template-columns.js';

const rc = (o: unknown) => o as ReplicationController;

export const replicationControllerColumns: PrinterColumn[] = [
  ...typedColumns<ReplicationController>([
    { name: 'Desired', type: 'integer', description: 'Replicas is the number of desired replicas.', cell: (o) => o.spec?.replicas ?? 0 },
    {
      name: 'Current',
      type: 'integer',
      description: 'Replicas is the most recently observed number of replicas.',
      cell: (o) => o.status?.replicas ?? 0,
    },
    {
      name: 'Ready',
      type: 'integer',
      description: 'The number of ready replicas for this replication controller.',
      cell: (o) => o.status?.readyReplicas ?? 0,
    },
  ]),
  AGE_COLUMN,
  ...templateContainerColumns((o) => rc(o).spec?.template),
  {
    name: 'Selector',
    type: 'string',
    priority: 1,
    description: 'Selector is a label query over pods that should match the Replicas count.',
    cell: (o) => formatSelector(rc(o).spec?.selector),
  },
];
