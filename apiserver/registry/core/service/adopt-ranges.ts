/**
 * At start, the service ranges take over a missing allocation state, or one left by other flags
 * (--service-cluster-ip-range or --service-node-port-range changed), rebuilt from the stored
 * Services — the part of Kubernetes' repair controllers that makes a range change safe. Ranges whose
 * state matches the flags are left alone, without reading any Service.
 */
import type { Service } from '../../../api/generated/types.js';
import { asKind } from '../../../api/object.js';
import type { GenericStore } from '../../generic/store.js';
import type { ServiceAllocators } from './allocator/service-allocators.js';
import { heldNodePorts } from './allocate-node-ports.js';
import type { ServiceSpec } from './service-spec.js';
import { EXTERNAL_NAME, isHeadless, specOf } from './service-spec.js';
import { familyOf } from '../../shared/network/ip.js';

export async function adoptServiceRanges(al: ServiceAllocators, services: GenericStore): Promise<void> {
  let specs: Promise<ServiceSpec[]> | undefined;
  const stored = () =>
    (specs ??= services.storage
      .list(services.keys.listPrefix(''))
      .then((r) => r.items.map((kv) => specOf(asKind<Service>(services.decode(kv))))));
  for (const family of al.families) {
    await al
      .clusterIPs(family)!
      .adopt(async () =>
        (await stored())
          .filter((spec) => spec.type !== EXTERNAL_NAME && !isHeadless(spec))
          .flatMap((spec) => (spec.clusterIPs ?? []).filter((ip) => familyOf(ip) === family)),
      );
  }
  await al.nodePorts.adopt(async () => (await stored()).flatMap(heldNodePorts));
}
