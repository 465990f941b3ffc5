/** `kubectl get nodes` columns, as Kubernetes' printers define them (1.28). */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { Node } from '../../../api/generated/types.js';

/** Ready / NotReady / Unknown, then SchedulingDisabled for cordoned nodes. */
function nodeStatus(o: Node): string {
  const ready = o.status?.conditions?.find((c) => c.type === 'Ready');
  const status = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (o.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

/** Roles from `node-role.<domain>/<role>` labels, sorted, or `<none>`. */
function nodeRoles(o: Node): string {
  const roles = new Set<string>();
  for (const key of Object.keys(o.metadata.labels ?? {})) {
    const m = /^node-role\.[^/]+\/(.+)$/.exec(key);
    if (m) roles.add(m[1]);
  }
  return roles.size > 0 ? [...roles].sort().join(',') : '<none>';
}

const address = (type: string) => (o: Node) => o.status?.addresses?.find((a) => a.type === type)?.address ?? '<none>';
const info = (key: 'osImage' | 'kernelVersion' | 'containerRuntimeVersion') => (o: Node) => o.status?.nodeInfo?.[key] || '<unknown>';

export const nodeColumns: PrinterColumn[] = [
  ...typedColumns<Node>([
    { name: 'Status', description: 'The status of the node', cell: nodeStatus },
    { name: 'Roles', description: 'The roles of the node', cell: nodeRoles },
  ]),
  AGE_COLUMN,
  ...typedColumns<Node>([
    {
      name: 'Version',
      description: 'Kubelet Version reported by the node.',
      cell: (o) => o.status?.nodeInfo?.kubeletVersion ?? '',
    },
    {
      name: 'Internal-IP',
      priority: 1,
      description: 'List of addresses reachable to the node. Queried from cloud provider, if available.',
      cell: address('InternalIP'),
    },
    {
      name: 'External-IP',
      priority: 1,
      description: 'List of addresses reachable to the node. Queried from cloud provider, if available.',
      cell: address('ExternalIP'),
    },
    {
      name: 'OS-Image',
      priority: 1,
      description: 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).',
      cell: info('osImage'),
    },
    {
      name: 'Kernel-Version',
      priority: 1,
      description: "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
      cell: info('kernelVersion'),
    },
    {
      name: 'Container-Runtime',
      priority: 1,
      description: 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
      cell: info('containerRuntimeVersion'),
    },
  ]),
];
