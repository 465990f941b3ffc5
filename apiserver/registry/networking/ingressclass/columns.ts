/** The IngressClass table, as Kubernetes' printIngressClass prints `kubectl get ingressclasses`. */
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { IngressClassSpec } from './strategy.js';

/** "<kind>[.<apiGroup>]/<name>", or "<none>". */
function parameters(spec: IngressClassSpec): string {
  const p = spec.parameters;
  if (!p) return '<none>';
  return `${p.kind ?? ''}${p.apiGroup !== undefined ? `.${p.apiGroup}` : ''}/${p.name ?? ''}`;
}

export const ingressClassColumns: PrinterColumn[] = [
  {
    name: 'Controller',
    type: 'string',
    description: 'Controller that is responsible for handling this class',
    cell: (o) => (o.spec as IngressClassSpec | undefined)?.controller ?? '',
  },
  {
    name: 'Parameters',
    type: 'string',
    description: 'A reference to a resource with additional parameters',
    cell: (o) => parameters((o.spec ?? {}) as IngressClassSpec),
  },
  AGE_COLUMN,
];
