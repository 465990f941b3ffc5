/**
 * The API server's half of garbage collection. On DELETE, the DeleteOptions (propagationPolicy, or the
 * deprecated orphanDependents) and the resource's default policy decide whether the object keeps the
 * `orphan` finalizer (its dependents are orphaned first) or the `foregroundDeletion` finalizer (its
 * blocking dependents are deleted first); the garbage collector in orch-controller-manager acts on them
 * and removes the finalizer. Background propagation sets neither: the object goes at once and the
 * collector deletes its dependents afterwards.
 */
import type { ApiObject } from '../../api/object.js';
import type { FieldError } from '../../api/field-errors.js';
import { invalid, notSupported } from '../../api/field-errors.js';
import type { ResourceDef } from '../../api/resource.js';
import type { DeleteOptions } from './delete-options.js';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER, PROPAGATION_POLICIES } from '../../api/deletion.js';

/** Kubernetes' rest.GarbageCollectionPolicy: what a DELETE without options does to dependents. */
export type GarbageCollectionPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

/**
 * The resources whose strategies answer something other than DeleteDependents in Kubernetes 1.28
 * (DefaultGarbageCollectionPolicy), keyed `<kubernetes group>/<version>/<resource>`: v1
 * ReplicationControllers and batch/v1 Jobs orphan for backwards compatibility; Events take no part.
 */
const DEFAULT_POLICIES: Readonly<Record<string, GarbageCollectionPolicy>> = {
  '/v1/replicationcontrollers': 'OrphanDependents',
  'batch/v1/jobs': 'OrphanDependents',
  '/v1/events': 'Unsupported',
  'events.k8s.io/v1/events': 'Unsupported',
};

/** Namespaces decide their finalizers on the first DELETE by their own rule (their REST Delete). */
const NAMESPACES = '/v1/namespaces';

type ResourceId = Pick<ResourceDef, 'kubernetesGroup' | 'version' | 'plural'>;

function resourceKey(def: ResourceId): string {
  return `${def.kubernetesGroup}/${def.version}/${def.plural}`;
}

/** The policy a DELETE without propagation options applies to this resource's dependents. */
export function defaultGarbageCollectionPolicy(def: ResourceId): GarbageCollectionPolicy {
  return DEFAULT_POLICIES[resourceKey(def)] ?? 'DeleteDependents';
}

/**
 * ValidateDeleteOptions' propagation rules: one of the two fields at most, and a known policy.
 * (Errors go to a 422 on DeleteOptions.)
 */
export function validatePropagation(options: DeleteOptions): FieldError[] {
  const errors: FieldError[] = [];
  if (options.orphanDependents !== undefined && options.propagationPolicy !== undefined) {
    errors.push(invalid('propagationPolicy', options.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (options.propagationPolicy !== undefined && !PROPAGATION_POLICIES.includes(options.propagationPolicy)) {
    errors.push(notSupported('propagationPolicy', options.propagationPolicy, [...PROPAGATION_POLICIES, 'nil']));
  }
  return errors;
}

/** Options first, then a finalizer already on the object, then the resource's default. */
function shouldOrphan(policy: GarbageCollectionPolicy, finalizers: readonly string[], options: DeleteOptions): boolean {
  if (policy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return options.orphanDependents;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Orphan';
  if (finalizers.includes(ORPHAN_FINALIZER)) return true;
  if (finalizers.includes(FOREGROUND_FINALIZER)) return false;
  return policy === 'OrphanDependents';
}

/** Options first (orphanDependents=false means background here), then a finalizer already on the object. */
function shouldDeleteInForeground(policy: GarbageCollectionPolicy, finalizers: readonly string[], options: DeleteOptions): boolean {
  if (policy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return false;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Foreground';
  if (finalizers.includes(FOREGROUND_FINALIZER)) return true;
  return false;
}

/**
 * The namespace REST's own rule on its first DELETE: orphanDependents=true orphans and
 * orphanDependents=false deletes in the foreground; otherwise the policy decides; without either,
 * whatever finalizer the namespace already has stays.
 */
function namespaceWants(finalizer: string, finalizers: readonly string[], options: DeleteOptions): boolean {
  const orphan = finalizer === ORPHAN_FINALIZER;
  if (options.orphanDependents !== undefined) return options.orphanDependents === orphan;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === (orphan ? 'Orphan' : 'Foreground');
  return finalizers.includes(finalizer);
}

/**
 * Kubernetes' deletionFinalizersForGarbageCollection: the object's metadata.finalizers after a DELETE
 * with these options, or undefined when they stay as they are. Other finalizers keep their order;
 * `orphan` and `foregroundDeletion` are removed and added back as decided.
 */
export function deletionFinalizers(def: ResourceId, obj: ApiObject, options: DeleteOptions): string[] | undefined {
  const current = obj.metadata.finalizers ?? [];
  const policy = defaultGarbageCollectionPolicy(def);
  const firstNamespaceDelete = resourceKey(def) === NAMESPACES && !obj.metadata.deletionTimestamp;
  const orphan = firstNamespaceDelete ? namespaceWants(ORPHAN_FINALIZER, current, options) : shouldOrphan(policy, current, options);
  const foreground = firstNamespaceDelete
    ? namespaceWants(FOREGROUND_FINALIZER, current, options)
    : shouldDeleteInForeground(policy, current, options);
  const next = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (orphan) next.push(ORPHAN_FINALIZER);
  if (foreground) next.push(FOREGROUND_FINALIZER);
  const same = new Set(next).size === new Set(current).size && next.every((f) => current.includes(f));
  return same ? undefined : next;
}
