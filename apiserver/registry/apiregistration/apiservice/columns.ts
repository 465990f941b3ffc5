/** The APIService table, as kube-aggregator prints it: SERVICE (namespace/name or Local), AVAILABLE (status and reason). */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { APIService } from '../../../api/generated/types.js';

function available(o: APIService): string {
  const c = o.status?.conditions?.find((x) => x.type === 'Available');
  if (!c) return 'Unknown';
  if (c.status === 'True' || !c.reason) return c.status;
  return `${c.status} (${c.reason})`;
}

export const apiServiceColumns: PrinterColumn[] = [
  ...typedColumns<APIService>([
    {
      name: 'Service',
      description: 'The reference to the service that hosts this API endpoint.',
      cell: (o) => (o.spec?.service ? `${o.spec.service.namespace ?? ''}/${o.spec.service.name ?? ''}` : 'Local'),
    },
    { name: 'Available', description: 'Whether this service is available.', cell: available },
  ]),
  AGE_COLUMN,
];
