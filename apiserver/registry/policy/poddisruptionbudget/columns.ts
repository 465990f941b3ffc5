/** The PodDisruptionBudget table, as Kubernetes' printPodDisruptionBudget fills it. */
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import { pdbSpec } from './strategy.js';

export const podDisruptionBudgetColumns: PrinterColumn[] = [
  {
    name: 'Min Available',
    type: 'string',
    description: 'The minimum number of pods that must be available.',
    cell: (o) => String(pdbSpec(o).minAvailable ?? 'N/A'),
  },
  {
    name: 'Max Unavailable',
    type: 'string',
    description: 'The maximum number of pods that may be unavailable.',
    cell: (o) => String(pdbSpec(o).maxUnavailable ?? 'N/A'),
  },
  {
    name: 'Allowed Disruptions',
    type: 'integer',
    description: 'Calculated number of pods that may be disrupted at this time.',
    cell: (o) => (o.status as { disruptionsAllowed?: number } | undefined)?.disruptionsAllowed ?? 0,
  },
  AGE_COLUMN,
];
