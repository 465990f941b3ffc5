/**
 * ValidatePersistentVolumeSpec: a PersistentVolume's spec, or an inline one in a VolumeAttachment
 * (`inline`: CSI only, no capacity, claim, affinity or class, reclaim policy Retain).
 */
import { posix } from 'node:path';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { forbidden, invalid, notSupported, required } from '../../../api/field-errors.js';
import type { ApiDomain } from '../../../api/domain.js';
import { nameIsDNSSubdomain } from '../../../api/validation/names.js';
import { resourceListEntries, validateBasicResource, validatePositiveQuantityValue } from '../pod-spec/resource-quantities.js';
import { validateNodeSelector } from '../pod-spec/scheduling.js';
import type { PersistentVolumeSpec, VolumeNodeAffinity } from '../../../api/generated/types.js';
import { validateVolumeSources } from './volume-sources.js';

/** Supported access modes, sorted as Kubernetes lists them. */
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
/** Supported volume modes. */
const VOLUME_MODES = ['Block', 'Filesystem'];
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];

/** Each access mode supported, and ReadWriteOncePod only alone. */
function validateAccessModeValues(modes: string[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    if (!ACCESS_MODES.includes(mode)) errors.push(notSupported(path, mode, ACCESS_MODES));
    else if (mode === 'ReadWriteOncePod') rwop = true;
    else other = true;
  }
  if (rwop && other) errors.push(forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errors;
}

/** A storage class name (PV, CSIStorageCapacity): a DNS subdomain. */
export function validateClassName(name: string, path: FieldPath): FieldError[] {
  return nameIsDNSSubdomain(name, false).map((m) => invalid(path, name, m));
}

export interface PersistentVolumeSpecOptions {
  /** The volume's name (iSCSI checks its length with the portal). */
  pvName: string;
  /** An inline spec of a VolumeAttachment. */
  inline: boolean;
  domain: ApiDomain;
}

function validateCapacity(spec: PersistentVolumeSpec, path: FieldPath): FieldError[] {
  const capacity = spec.capacity ?? {};
  const errors: FieldError[] = [];
  const names = Object.keys(capacity);
  if (names.length === 0) errors.push(required(path, ''));
  if (!names.includes('storage') || names.length > 1) errors.push(notSupported(path, capacity, ['storage']));
  for (const { path: p, quantity } of resourceListEntries(capacity, (n) => path.key(n))) {
    errors.push(...validateBasicResource(quantity, p), ...validatePositiveQuantityValue(quantity, p));
  }
  return errors;
}

/** validateVolumeNodeAffinity: a set affinity needs `required` node constraints. */
function validateVolumeNodeAffinity(affinity: VolumeNodeAffinity, path: FieldPath): FieldError[] {
  if (!affinity.required) return [required(path.child('required'), 'must specify required node constraints')];
  return validateNodeSelector(affinity.required, path.child('required'));
}

/** path.Clean(p) == "/". */
function isRoot(p: string): boolean {
  return posix.normalize(p).replace(/\/+$/, '') === '';
}

export function validatePersistentVolumeSpec(spec: PersistentVolumeSpec, opts: PersistentVolumeSpecOptions, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const inlineOnly = (field: string) => errors.push(forbidden(path.child(field), 'may not be specified in the context of inline volumes'));
  if (opts.inline) {
    if (spec.claimRef !== undefined) inlineOnly('claimRef');
    if (Object.keys(spec.capacity ?? {}).length > 0) inlineOnly('capacity');
    if (spec.csi === undefined) errors.push(required(path.child('csi'), 'has to be specified in the context of inline volumes'));
  }
  const modes = spec.accessModes ?? [];
  if (modes.length === 0) errors.push(required(path.child('accessModes'), ''));
  errors.push(...validateAccessModeValues(modes, path.child('accessModes')));
  if (!opts.inline) errors.push(...validateCapacity(spec, path.child('capacity')));

  const policy = spec.persistentVolumeReclaimPolicy ?? '';
  if (policy) {
    if (opts.inline && policy !== 'Retain') {
      errors.push(forbidden(path.child('persistentVolumeReclaimPolicy'), 'may only be Retain in the context of inline volumes'));
    } else if (!opts.inline && !RECLAIM_POLICIES.includes(policy)) {
      errors.push(notSupported(path.child('persistentVolumeReclaimPolicy'), policy, RECLAIM_POLICIES));
    }
  }
  const affinity = spec.nodeAffinity;
  if (affinity) {
    if (opts.inline) inlineOnly('nodeAffinity');
    else errors.push(...validateVolumeNodeAffinity(affinity, path.child('nodeAffinity')));
  }
  errors.push(
    ...validateVolumeSources({ ...spec }, path, { pvName: opts.pvName, domain: opts.domain, nodeAffinitySet: !opts.inline && !!affinity }),
  );

  const hostPath = spec.hostPath;
  if (hostPath && isRoot(hostPath.path ?? '') && policy === 'Recycle') {
    errors.push(forbidden(path.child('persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"));
  }
  const className = spec.storageClassName ?? '';
  if (className) {
    if (opts.inline) inlineOnly('storageClassName');
    else errors.push(...validateClassName(className, path.child('storageClassName')));
  }
  if (spec.volumeMode !== undefined) {
    if (opts.inline && spec.volumeMode !== 'Filesystem') {
      errors.push(forbidden(path.child('volumeMode'), 'may not specify volumeMode other than Filesystem in the context of inline volumes'));
    } else if (!opts.inline && !VOLUME_MODES.includes(spec.volumeMode)) {
      errors.push(notSupported(path.child('volumeMode'), spec.volumeMode, VOLUME_MODES));
    }
  }
  return errors;
}
