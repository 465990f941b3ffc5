/**
 * Cluster IPs of a Service, as Kubernetes' Service registry allocates them (alloc.go): one per IP
 * family in ipFamilies on create (the given ones or the next free), the secondary one on a
 * dual-stack upgrade, all of them when an ExternalName Service gets a type with cluster IPs; and
 * released on a downgrade, a change to ExternalName and deletion.
 */
import { fieldPath, invalid } from '../../../api/field-errors.js';
import type { Service } from '../../../api/generated/types.js';
import type { IPFamily } from '../../shared/network/ip.js';
import { familyOf } from '../../shared/network/ip.js';
import { AllocatorError } from './allocator/allocator-error.js';
import type { ServiceAllocators } from './allocator/service-allocators.js';
import type { Allocation } from './allocation.js';
import { internalError, invalidService } from './allocation.js';
import { isUnchangedPreferDualStack } from './ip-families.js';
import type { ServiceSpec } from './service-spec.js';
import { EXTERNAL_NAME, isHeadless } from './service-spec.js';

/** Takes the address at `index` of ipFamilies (the given one, or the next free) and writes it into the spec. */
async function takeAt(
  al: ServiceAllocators,
  obj: Service,
  spec: ServiceSpec,
  index: number,
  allocation: Allocation,
  dryRun: boolean,
): Promise<void> {
  const family = spec.ipFamilies![index] as IPFamily;
  const allocator = al.clusterIPs(family)!;
  const ips = (spec.clusterIPs ??= []);
  const wanted = ips[index] ?? '';
  let ip = wanted;
  try {
    if (wanted) await allocator.allocate(wanted, dryRun);
    else ip = await allocator.allocateNext(dryRun);
  } catch (err) {
    if (!(err instanceof AllocatorError)) throw err;
    if (wanted && (err.reason === 'NotInRange' || err.reason === 'Allocated')) {
      throw invalidService(obj, [invalid(fieldPath('spec', 'clusterIPs'), ips, `failed to allocate IP ${wanted}: ${err.message}`)]);
    }
    throw internalError(wanted ? `failed to allocate IP ${wanted}: ${err.message}` : `failed to allocate a serviceIP: ${err.message}`);
  }
  allocation.taken(() => allocator.release([ip]));
  ips[index] = ip;
  if (index === 0) spec.clusterIP = ip;
}

/** allocClusterIPs: every family of a new (or newly non-ExternalName) Service that is not headless. */
export async function allocateClusterIPs(
  al: ServiceAllocators,
  obj: Service,
  spec: ServiceSpec,
  allocation: Allocation,
  dryRun: boolean,
): Promise<void> {
  if (spec.type === EXTERNAL_NAME || isHeadless(spec)) return;
  for (let i = 0; i < (spec.ipFamilies ?? []).length; i++) await takeAt(al, obj, spec, i, allocation, dryRun);
}

/** Releases addresses, each by its own family (a family no longer configured is skipped). */
function releaseLater(al: ServiceAllocators, ips: readonly string[]): () => Promise<void> {
  return async () => {
    for (const ip of ips) {
      const family = familyOf(ip);
      if (family) await al.clusterIPs(family)?.release([ip]);
    }
  };
}

/** updateClusterIPs: the type-change, upgrade and downgrade cases of an update. */
export async function updateClusterIPs(
  al: ServiceAllocators,
  obj: Service,
  spec: ServiceSpec,
  old: ServiceSpec,
  allocation: Allocation,
  dryRun: boolean,
): Promise<void> {
  if (isUnchangedPreferDualStack(spec, old)) return;
  if (old.type === EXTERNAL_NAME && spec.type !== EXTERNAL_NAME) return allocateClusterIPs(al, obj, spec, allocation, dryRun);
  if (isHeadless(old)) return;
  const oldIPs = old.clusterIPs ?? [];
  if (old.type !== EXTERNAL_NAME && spec.type === EXTERNAL_NAME) {
    allocation.releaseOnCommit(releaseLater(al, oldIPs));
    return;
  }
  const families = spec.ipFamilies ?? [];
  const oldFamilies = old.ipFamilies ?? [];
  if (oldFamilies.length === 1 && families.length === 2) await takeAt(al, obj, spec, 1, allocation, dryRun);
  if (oldFamilies.length === 2 && families.length === 1 && oldIPs[1]) allocation.releaseOnCommit(releaseLater(al, [oldIPs[1]]));
}

/** releaseClusterIPs: what a deleted Service held. */
export function releaseClusterIPs(al: ServiceAllocators, spec: ServiceSpec): () => Promise<void> {
  if (spec.type === EXTERNAL_NAME || isHeadless(spec)) return async () => {};
  return releaseLater(al, spec.clusterIPs ?? []);
}
