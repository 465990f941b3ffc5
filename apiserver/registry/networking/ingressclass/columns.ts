/** The IngressClass table, as Kubernetes' printIngressClass prints `kubectl get ingressclasses`. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { IngressClass, IngressClassSpec } from '../../../api/generated/types.js';

/** "<kind>[.<apiGroup>]/<name>", or "<none>". */
function parameters(spec: IngressClassSpec): string {
  const p = spec.parameters;
  if (!p) return '<none>';
  return `${p.kind ?? ''}${p.apiGroup !== undefined ? `.${p.apiGroup}` : ''}/${p.name ?? ''}`;
}

export const ingressClassColumns: PrinterColumn[] = [
  ...typedColumns<IngressClass>([
    {
      name: 'Controller',
      description: 'Controller that is responsible for handling this class',
      cell: (o) => o.spec?.controller ?? '',
    },
    {
      name: 'Parameters',
      description: 'A reference to a resource with additional parameters',
      cell: (o) => parameters(o.spec ?? {}),
    },
  ]),
  AGE_COLUMN,
];
