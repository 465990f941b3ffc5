/** The ControllerRevision table, as Kubernetes' printControllerRevision fills it. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { ControllerRevision } from '../../../api/generated/types.js';

export const controllerRevisionColumns: PrinterColumn[] = [
  ...typedColumns<ControllerRevision>([
    {
      name: 'Controller',
      description: 'Controller of the object',
      cell: (o) => {
        const ref = (o.metadata.ownerReferences ?? []).find((r) => r.controller);
        if (!ref) return '<none>';
        // formatResourceName: the lower-cased group kind ("statefulset.apps") and the name.
        const slash = ref.apiVersion.indexOf('/');
        const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
        return `${(group ? `${ref.kind}.${group}` : ref.kind).toLowerCase()}/${ref.name}`;
      },
    },
    {
      name: 'Revision',
      type: 'integer',
      description: 'Revision indicates the revision of the state represented by Data.',
      cell: (o) => o.revision ?? 0,
    },
  ]),
  AGE_COLUMN,
];
