/** `kubectl get quota` columns (1.28): AGE, then `resource: used/hard` lists of requests and of limits. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import { canonicalQuantityText } from '../../../api/quantity.js';

interface QuotaView {
  metadata: object;
  spec?: { hard?: Record<string, unknown> };
  status?: { hard?: Record<string, unknown>; used?: Record<string, unknown> };
}

/** The hard-limited resources whose name does (limits) or does not (requests) start with `limits.`. */
function usage(q: QuotaView, limits: boolean): string {
  const quantity = (v: unknown) => (v === undefined ? '0' : canonicalQuantityText(v));
  return Object.keys(q.spec?.hard ?? {})
    .sort()
    .filter((r) => (r.split('.')[0] === 'limits' && r.includes('.')) === limits)
    .map((r) => `${r}: ${quantity(q.status?.used?.[r])}/${quantity(q.status?.hard?.[r])}`)
    .join(', ');
}

export const resourceQuotaColumns: PrinterColumn[] = [
  AGE_COLUMN,
  ...typedColumns<QuotaView>([
    {
      name: 'Request',
      description: 'Request represents a minimum amount of cpu/memory that a container may consume.',
      cell: (o) => usage(o, false),
    },
    {
      name: 'Limit',
      description: 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.',
      cell: (o) => usage(o, true),
    },
  ]),
];
