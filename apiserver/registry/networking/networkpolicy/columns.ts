/** The NetworkPolicy table, as Kubernetes' printNetworkPolicy fills it. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { NetworkPolicy } from '../../../api/generated/types.js';
import { formatLabelSelector } from '../../shared/pod-spec/template-columns.js';

export const networkPolicyColumns: PrinterColumn[] = [
  ...typedColumns<NetworkPolicy>([
    {
      name: 'Pod-Selector',
      description:
        'Selects the pods to which this NetworkPolicy object applies. The array of ingress rules is applied to any pods selected by this field. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is NOT optional and follows standard label selector semantics. An empty podSelector matches all pods in this namespace.',
      cell: (o) => formatLabelSelector(o.spec?.podSelector),
    },
  ]),
  AGE_COLUMN,
];
