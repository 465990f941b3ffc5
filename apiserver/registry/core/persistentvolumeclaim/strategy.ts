/**
 * PersistentVolumeClaim: volume mode Filesystem and phase Pending by default, data sources kept in step
 * (KEP 1495), and the update rules: the spec is immutable except a first volumeName, the storage class
 * moving from the beta annotation (or from unset) to the field, and storage requests of bound claims,
 * which may only grow. Status changes only through /status.
 */
import { deepCopy, jsonEqual } from '../../../api/object.js';
import type { ApiDomain } from '../../../api/domain.js';
import { typedStrategy, typedSubresource } from '../../../api/strategy.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, forbidden, invalid, required } from '../../../api/field-errors.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import { compareQuantities } from '../../../api/quantity.js';
import { withStatusOf } from '../../generic/status-subresource.js';
import { specDiff } from '../pod/update.js';
import { resourceListEntries, validateBasicResource } from '../../shared/pod-spec/resource-quantities.js';
import { validateClaimSpec } from '../../shared/pod-spec/claim-template.js';
import { setClaimSpecDefaults } from '../../shared/pod-spec/defaults.js';
import { decodeResourceList, readQuantity } from '../../shared/pod-spec/quantities.js';
import { semanticEqual } from '../../shared/pod-spec/semantic-equal.js';
import type { PersistentVolumeClaim, PersistentVolumeClaimSpec as ClaimSpec, TypedObjectReference } from '../../../api/generated/types.js';

const spec = (obj: PersistentVolumeClaim): ClaimSpec => obj.spec ?? {};

/** The beta annotation that named a claim's class before spec.storageClassName. */
function storageClassAnnotation(domain: ApiDomain): string {
  return `volume.beta.${domain.labelPrefix}/storage-class`;
}

function defaultPhase(obj: PersistentVolumeClaim): void {
  const status = obj.status ?? {};
  if (!status.phase) status.phase = 'Pending';
  obj.status = status;
}

/** dataSourceRef.namespace needs CrossNamespaceVolumeDataSource (off in 1.28) unless the claim already used dataSourceRef. */
function dropDisabledFields(next: ClaimSpec, old: ClaimSpec | undefined): void {
  if (next.dataSourceRef?.namespace && !old?.dataSourceRef) delete next.dataSourceRef.namespace;
}

/** A dataSource that is neither a claim nor a volume snapshot is dropped, unless the stored claim had one. */
function enforceDataSourceBackwardsCompatibility(next: ClaimSpec, old: ClaimSpec | undefined, domain: ApiDomain): void {
  if (old?.dataSource || !next.dataSource) return;
  const { apiGroup = '', kind } = next.dataSource;
  const claim = kind === 'PersistentVolumeClaim' && apiGroup === '';
  const snapshot = kind === 'VolumeSnapshot' && apiGroup === domain.group('snapshot.storage.k8s.io');
  if (!claim && !snapshot) delete next.dataSource;
}

/** NormalizeDataSources: whichever of dataSource and dataSourceRef is set fills the other. */
function normalizeDataSources(s: ClaimSpec): void {
  const copy = ({ apiGroup, kind, name }: TypedObjectReference): TypedObjectReference => ({
    ...(apiGroup !== undefined ? { apiGroup } : {}),
    kind,
    name,
  });
  if (s.dataSource && !s.dataSourceRef) s.dataSourceRef = copy(s.dataSource);
  if (s.dataSourceRef && !s.dataSource && s.dataSourceRef.namespace === undefined) s.dataSource = copy(s.dataSourceRef);
}

function prepareSpec(obj: PersistentVolumeClaim, old: PersistentVolumeClaim | undefined, domain: ApiDomain): void {
  const s = spec(obj);
  const oldSpec = old ? spec(old) : undefined;
  dropDisabledFields(s, oldSpec);
  enforceDataSourceBackwardsCompatibility(s, oldSpec, domain);
  normalizeDataSources(s);
  obj.spec = s;
}

/** Specs equal as Kubernetes compares them (quantities are canonical by now), the storage request left out for bound claims. */
function sameSpec(next: ClaimSpec, old: ClaimSpec, ignoreStorage: boolean): boolean {
  if (!ignoreStorage) return semanticEqual(next, old);
  const withoutStorage = (s: ClaimSpec): ClaimSpec => {
    const { storage: _s, ...requests } = s.resources?.requests ?? {};
    return { ...s, resources: { ...s.resources, requests } };
  };
  return semanticEqual(withoutStorage(next), withoutStorage(old));
}

/** ValidatePersistentVolumeClaimUpdate's own rules (the spec itself is checked by validate). */
function validateClaimUpdate(obj: PersistentVolumeClaim, old: PersistentVolumeClaim, domain: ApiDomain): FieldError[] {
  const errors: FieldError[] = [];
  const annotation = storageClassAnnotation(domain);
  const newAnnotations = obj.metadata.annotations ?? {};
  const oldAnnotations = old.metadata.annotations ?? {};
  const next = deepCopy(spec(obj));
  const prev = deepCopy(spec(old));
  // A first volumeName is the binder's to set.
  if (!prev.volumeName) {
    if (next.volumeName === undefined) delete prev.volumeName;
    else prev.volumeName = next.volumeName;
  }
  const oldHasAnnotation = Object.hasOwn(oldAnnotations, annotation);
  const fromAnnotation =
    oldHasAnnotation &&
    prev.storageClassName === undefined &&
    next.storageClassName === oldAnnotations[annotation] &&
    (!Object.hasOwn(newAnnotations, annotation) || newAnnotations[annotation] === oldAnnotations[annotation]);
  if (fromAnnotation) delete next.storageClassName;
  else {
    if ((newAnnotations[annotation] ?? '') !== (oldAnnotations[annotation] ?? '')) {
      errors.push(invalid(fieldPath('metadata', 'annotations', annotation), newAnnotations[annotation] ?? '', FIELD_IMMUTABLE_ERROR_MSG));
    }
    // A claim without a class may get one (retroactive default class), matching the annotation if any.
    const fromUnset =
      next.storageClassName !== undefined &&
      prev.storageClassName === undefined &&
      (!oldHasAnnotation || next.storageClassName === oldAnnotations[annotation]);
    if (fromUnset) delete next.storageClassName;
  }
  const bound = obj.status?.phase === 'Bound';
  if (!sameSpec(next, prev, bound && next.resources?.requests !== undefined)) {
    errors.push(
      forbidden(fieldPath('spec'), `spec is immutable after creation except resources.requests for bound claims\n${specDiff(prev, next)}`),
    );
  }
  const newSize = readQuantity(spec(obj).resources?.requests?.storage);
  const oldSize = readQuantity(spec(old).resources?.requests?.storage);
  if (newSize && oldSize && compareQuantities(newSize, oldSize) < 0) {
    errors.push(forbidden(fieldPath('spec', 'resources', 'requests', 'storage'), 'field can not be less than previous value'));
  }
  if (!jsonEqual(spec(obj).volumeMode, spec(old).volumeMode))
    errors.push(invalid('volumeMode', spec(obj).volumeMode ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  return errors;
}

export const persistentVolumeClaimStrategy = typedStrategy<PersistentVolumeClaim>({
  applyDefaults(obj) {
    const s = spec(obj);
    setClaimSpecDefaults(obj, s);
    obj.spec = s;
  },
  prepareForCreate(obj, ctx) {
    obj.status = {};
    defaultPhase(obj);
    prepareSpec(obj, undefined, ctx.domain);
  },
  prepareForUpdate(obj, old, ctx) {
    prepareSpec(obj, old, ctx.domain);
  },
  validate: (obj) => validateClaimSpec(spec(obj), fieldPath('spec')),
  validateUpdate: (obj, old, ctx) => [...validateClaimSpec(spec(obj), fieldPath('spec')), ...validateClaimUpdate(obj, old, ctx.domain)],
});

/**
 * /status: only status changes; allocatedResources and allocatedResourceStatuses need
 * RecoverVolumeExpansionFailure (off in 1.28) unless already stored; capacities may not be negative.
 */
export const persistentVolumeClaimStatusStrategy = typedSubresource<PersistentVolumeClaim>({
  prepareForUpdate(obj, old, _ctx) {
    const next = withStatusOf(obj, old);
    const status = next.status ?? {};
    const oldStatus = old.status ?? {};
    if (oldStatus.allocatedResources === undefined) delete status.allocatedResources;
    if (oldStatus.allocatedResourceStatuses === undefined) delete status.allocatedResourceStatuses;
    decodeResourceList(next, status.capacity);
    next.status = status;
    defaultPhase(next);
    return next;
  },
  validateUpdate(obj) {
    const errors: FieldError[] = [];
    if ((spec(obj).accessModes ?? []).length === 0) errors.push(required(fieldPath('Spec', 'accessModes'), ''));
    const capacity = obj.status?.capacity;
    for (const { path, quantity } of resourceListEntries(capacity, (n) => fieldPath('status', 'capacity').key(n))) {
      errors.push(...validateBasicResource(quantity, path));
    }
    return errors;
  },
});
