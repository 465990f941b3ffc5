/** The Deployment table, as Kubernetes' printDeployment fills it. */
import type { ApiObject } from '../../../api/object.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import { selectorColumn, templateContainerColumns } from '../../core/pod-spec/template-columns.js';
import type { WorkloadSpec } from '../workload-spec.js';

interface DeploymentStatus {
  readyReplicas?: number;
  updatedReplicas?: number;
  availableReplicas?: number;
}

const spec = (o: ApiObject): WorkloadSpec => (o.spec ?? {}) as WorkloadSpec;
const status = (o: ApiObject): DeploymentStatus => (o.status ?? {}) as DeploymentStatus;

export const deploymentColumns: PrinterColumn[] = [
  {
    name: 'Ready',
    type: 'string',
    description: 'Number of the pod with ready state',
    cell: (o) => `${status(o).readyReplicas ?? 0}/${spec(o).replicas ?? 0}`,
  },
  {
    name: 'Up-to-date',
    type: 'string',
    description: 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
    cell: (o) => status(o).updatedReplicas ?? 0,
  },
  {
    name: 'Available',
    type: 'string',
    description: 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
    cell: (o) => status(o).availableReplicas ?? 0,
  },
  AGE_COLUMN,
  ...templateContainerColumns((o) => spec(o).template),
  selectorColumn(
    (o) => spec(o).selector,
    'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
  ),
];
