/** The ReplicationController table, as Kubernetes' printReplicationController fills it. */
import type { ReplicationController } from '../../../api/generated/types.js';
import { formatSelector } from '../../../api/printers/columns.js';
import { replicaCountColumns, workloadColumns } from '../../shared/workload/columns.js';

export const replicationControllerColumns = workloadColumns<ReplicationController>({
  counts: replicaCountColumns('The number of ready replicas for this replication controller.'),
  template: (o) => o.spec?.template,
  selector: {
    name: 'Selector',
    priority: 1,
    description: 'Selector is a label query over pods that should match the Replicas count.',
    cell: (o) => formatSelector(o.spec?.selector),
  },
});
