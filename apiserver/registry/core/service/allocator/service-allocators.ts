/**
 * The allocators of a server's service network, built once from its flags: one cluster-IP
 * allocator per --service-cluster-ip-range entry (the first one's family is the cluster's default)
 * and the node-port allocator of --service-node-port-range. Their state lives under
 * `<etcd-prefix>/ranges/` with Kubernetes' key names, shared by every replica on the same store.
 */
import type { Storage } from '../../../../storage/interfaces.js';
import type { IPFamily } from '../../../shared/network/ip.js';
import { parseCIDR } from '../../../shared/network/ip.js';
import type { ClusterIPAllocator } from './cluster-ip-allocator.js';
import { newClusterIPAllocator } from './cluster-ip-allocator.js';
import type { NodePortAllocator } from './node-port-allocator.js';
import { newNodePortAllocator } from './node-port-allocator.js';
import type { PortRange } from './port-range.js';
import type { HookDependency } from '../../../generic/store-hooks.js';

/** The service network as configured: CIDRs from parseServiceClusterIPRanges, the node-port range. */
export interface ServiceNetworkConfig {
  clusterIPRanges: readonly string[];
  nodePortRange: PortRange;
}

/** Where allocation failures that cannot fail the request (releases after the write) are reported. */
export interface AllocatorLogger {
  warn(message: string, meta?: Record<string, unknown>): void;
}

export interface ServiceAllocators {
  /** The configured families, the default (primary) one first. */
  readonly families: readonly IPFamily[];
  /** The cluster-IP allocator of a configured family. */
  clusterIPs(family: IPFamily): ClusterIPAllocator | undefined;
  readonly nodePorts: NodePortAllocator;
  readonly logger: AllocatorLogger;
}

const RANGE_KEYS = ['serviceips', 'secondaryserviceips'];

/** The allocators, as the Service hooks (allocation-hooks.ts) ask the server for them. */
export const SERVICE_ALLOCATORS: HookDependency<ServiceAllocators> = { name: 'the Service IP and node port allocators' };

export function newServiceAllocators(
  storage: Storage,
  storagePrefix: string,
  config: ServiceNetworkConfig,
  logger: AllocatorLogger,
): ServiceAllocators {
  const root = `${storagePrefix.replace(/\/+$/, '')}/ranges`;
  const byFamily = new Map<IPFamily, ClusterIPAllocator>();
  config.clusterIPRanges.forEach((range, i) => {
    const cidr = parseCIDR(range);
    if (!cidr) throw new Error(`invalid service cluster IP range ${range}`);
    byFamily.set(cidr.family, newClusterIPAllocator(cidr, storage, `${root}/${RANGE_KEYS[i]}`));
  });
  return {
    families: [...byFamily.keys()],
    clusterIPs: (family) => byFamily.get(family),
    nodePorts: newNodePortAllocator(config.nodePortRange, storage, `${root}/servicenodeports`),
    logger,
  };
}
