/** The PodTemplate table, as Kubernetes' printPodTemplate fills it: no AGE. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { formatSelector } from '../../../api/printers/columns.js';
import type { PodTemplate } from '../../../api/generated/types.js';

const containers = (o: PodTemplate) => o.template?.spec?.containers ?? [];

export const podTemplateColumns: PrinterColumn[] = typedColumns<PodTemplate>([
  {
    name: 'Containers',
    description: 'Names of each container in the template.',
    cell: (o) =>
      containers(o)
        .map((c) => c.name ?? '')
        .join(','),
  },
  {
    name: 'Images',
    description: 'Images referenced by each container in the template.',
    cell: (o) =>
      containers(o)
        .map((c) => c.image ?? '')
        .join(','),
  },
  {
    name: 'Pod Labels',
    description: 'The labels for the pod template.',
    cell: (o) => formatSelector(o.template?.metadata?.labels),
  },
]);
