/** The ReplicaSet table, as Kubernetes' printReplicaSet fills it. */
import type { ReplicaSet } from '../../../api/generated/types.js';
import { selectorColumn } from '../../shared/pod-spec/template-columns.js';
import { replicaCountColumns, workloadColumns } from '../../shared/workload/columns.js';

export const replicaSetColumns = workloadColumns<ReplicaSet>({
  counts: replicaCountColumns('The number of ready replicas for this replica set.'),
  template: (o) => o.spec?.template,
  selector: selectorColumn<ReplicaSet>((o) => o.spec?.selector, 'Selector is a label query over pods that should match the replica count.'),
});
