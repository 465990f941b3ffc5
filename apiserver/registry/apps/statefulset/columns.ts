/** The StatefulSet table, as Kubernetes' printStatefulSet fills it. */
import type { ApiObject } from '../../../api/object.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import { templateContainerColumns } from '../../core/pod-spec/template-columns.js';
import type { WorkloadSpec } from '../workload-spec.js';

const spec = (o: ApiObject): WorkloadSpec => (o.spec ?? {}) as WorkloadSpec;

export const statefulSetColumns: PrinterColumn[] = [
  {
    name: 'Ready',
    type: 'string',
    description: 'Number of the pod with ready state',
    cell: (o) => `${(o.status as { readyReplicas?: number } | undefined)?.readyReplicas ?? 0}/${spec(o).replicas ?? 0}`,
  },
  AGE_COLUMN,
  ...templateContainerColumns((o) => spec(o).template),
];
