/** The StatefulSet table, as Kubernetes' printStatefulSet fills it. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { StatefulSet } from '../../../api/generated/types.js';
import { templateContainerColumns } from '../../shared/pod-spec/template-columns.js';

export const statefulSetColumns: PrinterColumn[] = [
  ...typedColumns<StatefulSet>([
    {
      name: 'Ready',
      type: 'string',
      description: 'Number of the pod with ready state',
      cell: (o) => `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`,
    },
  ]),
  AGE_COLUMN,
  ...templateContainerColumns<StatefulSet>((o) => o.spec?.template),
];
