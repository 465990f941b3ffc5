/** The Ingress table, as Kubernetes' printIngress prints `kubectl get ingress`. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { Ingress, IngressSpec } from '../../../api/generated/types.js';
import { loadBalancerAddresses } from '../../shared/network/load-balancer-addresses.js';

const SHOWN = 3;

/** formatHosts: the first three rule hosts, "+ N more..." (N counted in rules beyond three), "*" when none. */
function hosts(spec: IngressSpec): string {
  const rules = spec.rules ?? [];
  const list: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (list.length === SHOWN) more = true;
    if (!more && rule.host) list.push(rule.host);
  }
  if (list.length === 0) return '*';
  return more ? `${list.join(',')} + ${rules.length - SHOWN} more...` : list.join(',');
}

export const ingressColumns: PrinterColumn[] = [
  ...typedColumns<Ingress>([
    {
      name: 'Class',
      description: 'The name of the IngressClass resource that should be used for additional configuration',
      cell: (o) => o.spec?.ingressClassName ?? '<none>',
    },
    {
      name: 'Hosts',
      description: 'Hosts that incoming requests are matched against before the ingress rule',
      cell: (o) => hosts(o.spec ?? {}),
    },
    {
      name: 'Address',
      description: 'Address is a list containing ingress points for the load-balancer',
      cell: (o) => loadBalancerAddresses(o.status?.loadBalancer?.ingress),
    },
    {
      name: 'Ports',
      description: 'Ports of TLS configurations that open',
      cell: (o) => ((o.spec?.tls ?? []).length > 0 ? '80, 443' : '80'),
    },
  ]),
  AGE_COLUMN,
];
