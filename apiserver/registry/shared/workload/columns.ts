/**
 * The tables of the workloads that run a pod template (Deployment, ReplicaSet, ReplicationController,
 * StatefulSet, DaemonSet), as Kubernetes' printers fill them: the kind's counts, AGE, then (-o wide)
 * the template's CONTAINERS and IMAGES and the SELECTOR; and the DESIRED / CURRENT / READY counts
 * that ReplicaSet and ReplicationController print alike.
 */
import type { PrinterColumn } from '../../../api/resource.js';
import { type TypedColumn, typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { PodTemplateSpec } from '../../../api/generated/types.js';
import { templateContainerColumns } from '../pod-spec/template-columns.js';

export interface WorkloadTable<T> {
  /** The kind's count columns, printed before AGE. */
  counts: TypedColumn<T>[];
  template: (obj: T) => PodTemplateSpec | undefined;
  /** The wide SELECTOR column; absent for a kind that prints none (StatefulSet). */
  selector?: TypedColumn<T>;
}

export function workloadColumns<T extends { metadata: object }>(table: WorkloadTable<T>): PrinterColumn[] {
  return [
    ...typedColumns<T>(table.counts),
    AGE_COLUMN,
    ...templateContainerColumns<T>(table.template),
    ...typedColumns<T>(table.selector ? [table.selector] : []),
  ];
}

interface ReplicaCounted {
  metadata: object;
  spec?: { replicas?: number };
  status?: { replicas?: number; readyReplicas?: number };
}

/** DESIRED, CURRENT and READY of a ReplicaSet or a ReplicationController; `ready` describes READY. */
export function replicaCountColumns<T extends ReplicaCounted>(ready: string): TypedColumn<T>[] {
  return [
    { name: 'Desired', type: 'integer', description: 'Replicas is the number of desired replicas.', cell: (o) => o.spec?.replicas ?? 0 },
    {
      name: 'Current',
      type: 'integer',
      description: 'Replicas is the most recently observed number of replicas.',
      cell: (o) => o.status?.replicas ?? 0,
    },
    { name: 'Ready', type: 'integer', description: ready, cell: (o) => o.status?.readyReplicas ?? 0 },
  ];
}
