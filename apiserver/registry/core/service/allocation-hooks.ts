/**
 * The Service store hooks (store-hooks.ts): Kubernetes' allocateCreate / allocateUpdate /
 * releaseAllocatedResources. After validation and before the write they settle the IP family fields
 * against the cluster's configuration, take cluster IPs and node ports from the shared allocators
 * (dry runs check and pick without taking), and hand back a transaction; deleting a Service gives
 * back everything it held.
 */
import type { Service } from '../../../api/generated/types.js';
import { asKind } from '../../../api/object.js';
import type { StoreHookEnv, StoreHooks } from '../../generic/store-hooks.js';
import { Allocation, invalidService } from './allocation.js';
import { allocateClusterIPs, releaseClusterIPs, updateClusterIPs } from './allocate-cluster-ips.js';
import { allocateNodePorts, heldNodePorts, updateNodePorts } from './allocate-node-ports.js';
import { initIPFamilyFields } from './ip-families.js';
import { SERVICE_ALLOCATORS } from './allocator/service-allocators.js';
import { SERVICE_ENDPOINTS_CLEANUP } from './endpoints-cleanup.js';
import type { ServiceSpec } from './service-spec.js';
import { ensureSpec, specOf } from './service-spec.js';

/** Runs steps in order; when one fails, what the earlier ones took is given back. */
async function allocating(allocation: Allocation, steps: (() => Promise<void>)[]): Promise<Allocation> {
  try {
    for (const step of steps) await step();
  } catch (err) {
    await allocation.revert();
    throw err;
  }
  return allocation;
}

export function newServiceAllocationHooks(env: StoreHookEnv): StoreHooks {
  const al = env.need(SERVICE_ALLOCATORS);
  const endpoints = env.need(SERVICE_ENDPOINTS_CLEANUP);
  const settleFamilies = (obj: Service, spec: ServiceSpec, old: ServiceSpec | null) => {
    const errs = initIPFamilyFields(spec, old, al.families);
    if (errs.length > 0) throw invalidService(obj, errs);
  };
  return {
    async beforeCreate(stored, ctx) {
      const obj = asKind<Service>(stored);
      const spec = ensureSpec(obj);
      settleFamilies(obj, spec, null);
      const allocation = new Allocation(al.logger, ctx.dryRun);
      return allocating(allocation, [
        () => allocateClusterIPs(al, obj, spec, allocation, ctx.dryRun),
        () => allocateNodePorts(al, obj, spec, allocation, ctx.dryRun),
      ]);
    },
    async beforeUpdate(stored, old, ctx) {
      const obj = asKind<Service>(stored);
      const spec = ensureSpec(obj);
      const oldSpec = specOf(asKind<Service>(old));
      settleFamilies(obj, spec, oldSpec);
      const allocation = new Allocation(al.logger, ctx.dryRun);
      return allocating(allocation, [
        () => updateClusterIPs(al, obj, spec, oldSpec, allocation, ctx.dryRun),
        () => updateNodePorts(al, obj, spec, oldSpec, allocation, ctx.dryRun),
      ]);
    },
    async afterDelete(old) {
      const spec = specOf(asKind<Service>(old));
      const allocation = new Allocation(al.logger, false);
      allocation.releaseOnCommit(releaseClusterIPs(al, spec));
      const ports = heldNodePorts(spec);
      if (ports.length > 0) allocation.releaseOnCommit(() => al.nodePorts.release(ports));
      await allocation.commit();
      await endpoints.deleteEndpoints(old.metadata.namespace ?? '', old.metadata.name ?? '');
    },
  };
}
