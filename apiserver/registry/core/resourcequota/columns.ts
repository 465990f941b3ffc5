/** `kubectl get quota` columns (1.28): AGE, then `resource: used/hard` lists of requests and of limits. */
import type { ApiObject } from '../../../api/object.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import { canonicalQuantityText } from '../../../api/quantity.js';

type QuotaView = { spec?: { hard?: Record<string, unknown> }; status?: { hard?: Record<string, unknown>; used?: Record<string, unknown> } };

/** The hard-limited resources whose name does (limits) or does not (requests) start with `limits.`. */
function usage(o: ApiObject, limits: boolean): string {
  const q = o as QuotaView;
  const quantity = (v: unknown) => (v === undefined ? '0' : canonicalQuantityText(v));
  return Object.keys(q.spec?.hard ?? {})
    .sort()
    .filter((r) => (r.split('.')[0] === 'limits' && r.includes('.')) === limits)
    .map((r) => `${r}: ${quantity(q.status?.used?.[r])}/${quantity(q.status?.hard?.[r])}`)
    .join(', ');
}

export const resourceQuotaColumns: PrinterColumn[] = [
  AGE_COLUMN,
  {
    name: 'Request',
    type: 'string',
    description: 'Request represents a minimum amount of cpu/memory that a container may consume.',
    cell: (o) => usage(o, false),
  },
  {
    name: 'Limit',
    type: 'string',
    description: 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.',
    cell: (o) => usage(o, true),
  },
];
