/** The ComponentStatus table, as Kubernetes' printComponentStatus fills it: no AGE. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import type { ComponentStatus } from '../../../api/generated/types.js';

const healthy = (o: ComponentStatus) => (o.conditions ?? []).find((c) => c.type === 'Healthy');

export const componentStatusColumns: PrinterColumn[] = typedColumns<ComponentStatus>([
  {
    name: 'Status',
    description: 'Status of the component conditions',
    cell: (o) => {
      const c = healthy(o);
      return c ? (c.status === 'True' ? 'Healthy' : 'Unhealthy') : 'Unknown';
    },
  },
  { name: 'Message', description: 'Message of the component conditions', cell: (o) => healthy(o)?.message ?? '' },
  { name: 'Error', description: 'Error of the component conditions', cell: (o) => healthy(o)?.error ?? '' },
]);
