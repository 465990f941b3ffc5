/** The ReplicaSet table, as Kubernetes' printReplicaSet fills it. */
import type { ApiObject } from '../../../api/object.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import { selectorColumn, templateContainerColumns } from '../../core/pod-spec/template-columns.js';
import type { WorkloadSpec } from '../workload-spec.js';

const spec = (o: ApiObject): WorkloadSpec => (o.spec ?? {}) as WorkloadSpec;
const status = (o: ApiObject): { replicas?: number; readyReplicas?: number } =>
  (o.status ?? {}) as { replicas?: number; readyReplicas?: number };

export const replicaSetColumns: PrinterColumn[] = [
  { name: 'Desired', type: 'integer', description: 'Replicas is the number of desired replicas.', cell: (o) => spec(o).replicas ?? 0 },
  {
    name: 'Current',
    type: 'integer',
    description: 'Replicas is the most recently observed number of replicas.',
    cell: (o) => status(o).replicas ?? 0,
  },
  {
    name: 'Ready',
    type: 'integer',
    description: 'The number of ready replicas for this replica set.',
    cell: (o) => status(o).readyReplicas ?? 0,
  },
  AGE_COLUMN,
  ...templateContainerColumns((o) => spec(o).template),
  selectorColumn((o) => spec(o).selector, 'Selector is a label query over pods that should match the replica count.'),
];
