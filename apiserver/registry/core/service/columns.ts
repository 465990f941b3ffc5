/** The Service table, as Kubernetes' printService prints `kubectl get services` (wide: Selector). */
import type { Service } from '../../../api/generated/types.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN, formatSelector } from '../../../api/printers/columns.js';
import type { ServiceSpec } from './service-spec.js';
import { loadBalancerAddresses } from '../../shared/network/load-balancer-addresses.js';
import { CLUSTER_IP, EXTERNAL_NAME, LOAD_BALANCER, NODE_PORT, specOf } from './service-spec.js';

function externalIP(obj: Service): string {
  const spec = specOf(obj);
  const external = spec.externalIPs ?? [];
  switch (spec.type) {
    case CLUSTER_IP:
    case NODE_PORT:
      return external.length > 0 ? external.join(',') : '<none>';
    case LOAD_BALANCER: {
      const lb = loadBalancerAddresses(obj.status?.loadBalancer?.ingress);
      if (external.length > 0) return [...(lb ? lb.split(',') : []), ...external].join(',');
      return lb || '<pending>';
    }
    case EXTERNAL_NAME:
      return spec.externalName ?? '';
    default:
      return '<unknown>';
  }
}

function ports(spec: ServiceSpec): string {
  const shown = (spec.ports ?? []).map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol}` : `${p.port}/${p.protocol}`));
  return shown.length > 0 ? shown.join(',') : '<none>';
}

function selector(spec: ServiceSpec): string {
  return formatSelector(Object.fromEntries(Object.entries(spec.selector ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

export const serviceColumns: PrinterColumn[] = [
  ...typedColumns<Service>([
    { name: 'Type', description: 'type determines how the Service is exposed.', cell: (o) => specOf(o).type ?? '' },
    {
      name: 'Cluster-IP',
      description: 'clusterIP is the IP address of the service.',
      cell: (o) => specOf(o).clusterIPs?.[0] ?? '<none>',
    },
    {
      name: 'External-IP',
      description: 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.',
      cell: externalIP,
    },
    { name: 'Port(s)', description: 'The list of ports that are exposed by this service.', cell: (o) => ports(specOf(o)) },
  ]),
  AGE_COLUMN,
  ...typedColumns<Service>([
    {
      name: 'Selector',
      priority: 1,
      description: 'Route service traffic to pods with label keys and values matching this selector.',
      cell: (o) => selector(specOf(o)),
    },
  ]),
];
