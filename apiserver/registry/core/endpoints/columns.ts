/** The Endpoints table, as Kubernetes' printEndpoints prints `kubectl get endpoints`. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { Endpoints } from './types.js';

const SHOWN = 3;

/** formatEndpoints: up to three ready "ip:port" (or bare IPs for port-less subsets), then "+ N more...". */
export function formatEndpoints(obj: Endpoints): string {
  const subsets = obj.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  let count = 0;
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    const ports = ss.ports?.length ? ss.ports.map((p) => p.port) : [undefined];
    for (const port of ports) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === SHOWN) break;
        const ip = a.ip ?? '';
        list.push(port === undefined ? ip : ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`);
      }
    }
  }
  const shown = list.join(',');
  return count > SHOWN ? `${shown} + ${count - SHOWN} more...` : shown;
}

export const endpointsColumns: PrinterColumn[] = [
  ...typedColumns<Endpoints>([
    { name: 'Endpoints', description: 'The set of all endpoints is the union of all subsets.', cell: formatEndpoints },
  ]),
  AGE_COLUMN,
];
