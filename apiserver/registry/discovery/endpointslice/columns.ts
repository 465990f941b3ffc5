/** The EndpointSlice table, as Kubernetes' printEndpointSlice prints `kubectl get endpointslices`. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { EndpointSlice } from './types.js';

const SHOWN = 3;

/** listWithMoreString: up to three items, "+ N more..." beyond, "<unset>" for none. */
function listWithMore(items: string[]): string {
  const shown = items.slice(0, SHOWN).join(',');
  if (items.length > SHOWN) return `${shown} + ${items.length - SHOWN} more...`;
  return shown || '<unset>';
}

export const endpointSliceColumns: PrinterColumn[] = [
  ...typedColumns<EndpointSlice>([
    {
      name: 'AddressType',
      description: 'addressType specifies the type of address carried by this EndpointSlice.',
      cell: (o) => String(o.addressType ?? ''),
    },
    {
      name: 'Ports',
      description: 'ports specifies the list of network ports exposed by each endpoint in this slice.',
      cell: (o) => listWithMore((o.ports ?? []).map((p) => (p.port !== undefined ? String(p.port) : p.name !== undefined ? p.name : '*'))),
    },
    {
      name: 'Endpoints',
      description: 'endpoints is a list of unique endpoints in this slice.',
      cell: (o) => listWithMore((o.endpoints ?? []).flatMap((e) => e.addresses ?? [])),
    },
  ]),
  AGE_COLUMN,
];
