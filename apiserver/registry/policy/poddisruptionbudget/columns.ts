/** The PodDisruptionBudget table, as Kubernetes' printPodDisruptionBudget fills it. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { PodDisruptionBudget } from '../../../api/generated/types.js';

export const podDisruptionBudgetColumns: PrinterColumn[] = [
  ...typedColumns<PodDisruptionBudget>([
    {
      name: 'Min Available',
      description: 'The minimum number of pods that must be available.',
      cell: (o) => String(o.spec?.minAvailable ?? 'N/A'),
    },
    {
      name: 'Max Unavailable',
      description: 'The maximum number of pods that may be unavailable.',
      cell: (o) => String(o.spec?.maxUnavailable ?? 'N/A'),
    },
    {
      name: 'Allowed Disruptions',
      type: 'integer',
      description: 'Calculated number of pods that may be disrupted at this time.',
      cell: (o) => o.status?.disruptionsAllowed ?? 0,
    },
  ]),
  AGE_COLUMN,
];
