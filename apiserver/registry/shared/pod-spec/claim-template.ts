/**
 * The claim template of an ephemeral volume (ValidatePersistentVolumeClaimTemplate): template metadata
 * limited to labels and annotations, and Kubernetes' PersistentVolumeClaimSpec rules.
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { forbidden, invalid, notSupported, required } from '../../../api/field-errors.js';
import { isDNS1123Subdomain, nameIsDNSLabel, nameIsDNSSubdomain } from '../../../api/validation/names.js';
import { validateAnnotations, validateLabels } from '../../../api/validation/object-meta.js';
import { formatQuantity, quantitySign } from '../../../api/quantity.js';
import { validateLabelSelector } from './label-selector.js';
import { readQuantity } from './quantities.js';
import type { PersistentVolumeClaimSpec, TypedObjectReference } from '../../../api/generated/types.js';

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];

/** ObjectMeta fields in Go's declaration order: all but labels and annotations "cannot be set" in a template. */
const META_FIELDS = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

/** ValidateTemplateObjectMeta: labels and annotations valid, every other metadata field unset. */
function validateTemplateObjectMeta(meta: Record<string, unknown>, path: FieldPath): FieldError[] {
  const errs = validateAnnotations(meta.annotations as Record<string, string> | undefined, path.child('annotations'));
  errs.push(...validateLabels(meta.labels as Record<string, string> | undefined, path.child('labels')));
  for (const field of META_FIELDS) {
    if (field === 'labels' || field === 'annotations') continue;
    const value = meta[field];
    const unset = value === undefined || value === '' || value === 0 || (Array.isArray(value) && value.length === 0);
    if (!unset) errs.push(forbidden(path.child(field), 'cannot be set'));
  }
  return errs;
}

function validateDataSource(ref: TypedObjectReference, path: FieldPath, isRef: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!ref.name) errs.push(required(path.child('name')));
  if (!ref.kind) errs.push(required(path.child('kind')));
  const apiGroup = ref.apiGroup ?? '';
  if (!apiGroup && ref.kind !== 'PersistentVolumeClaim') {
    errs.push(invalid(path, ref.kind ?? '', "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  }
  if (apiGroup) errs.push(...isDNS1123Subdomain(apiGroup).map((m) => invalid(path.child('apiGroup'), apiGroup, m)));
  if (isRef && ref.namespace)
    errs.push(...nameIsDNSLabel(ref.namespace, false).map((m) => invalid(path.child('namespace'), ref.namespace, m)));
  return errs;
}

/** ValidatePersistentVolumeClaimSpec: access modes, the storage request, class, volume mode and data sources. */
export function validateClaimSpec(spec: PersistentVolumeClaimSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const modes = spec.accessModes ?? [];
  if (modes.length === 0) errs.push(required(path.child('accessModes'), 'at least 1 access mode is required'));
  errs.push(...validateLabelSelector(spec.selector, path.child('selector')));
  for (const mode of modes) {
    if (!ACCESS_MODES.includes(mode)) errs.push(notSupported(path.child('accessModes'), mode, ACCESS_MODES));
  }
  if (modes.includes('ReadWriteOncePod') && modes.some((m) => m !== 'ReadWriteOncePod' && ACCESS_MODES.includes(m))) {
    errs.push(forbidden(path.child('accessModes'), 'may not use ReadWriteOncePod with other access modes'));
  }
  const storagePath = path.child('resources').key('storage');
  const storage = spec.resources?.requests?.storage;
  const quantity = storage === undefined ? undefined : readQuantity(storage);
  if (storage === undefined) errs.push(required(storagePath));
  else if (quantity !== undefined && quantitySign(quantity) <= 0)
    errs.push(invalid(storagePath, formatQuantity(quantity), 'must be greater than zero'));
  if (spec.storageClassName) {
    errs.push(
      ...nameIsDNSSubdomain(spec.storageClassName, false).map((m) => invalid(path.child('storageClassName'), spec.storageClassName, m)),
    );
  }
  if (spec.volumeMode !== undefined && !VOLUME_MODES.includes(spec.volumeMode))
    errs.push(notSupported(path.child('volumeMode'), spec.volumeMode, VOLUME_MODES));
  if (spec.dataSource) errs.push(...validateDataSource(spec.dataSource, path.child('dataSource'), false));
  if (spec.dataSourceRef) errs.push(...validateDataSource(spec.dataSourceRef, path.child('dataSourceRef'), true));
  if (spec.dataSourceRef?.namespace) {
    if (spec.dataSource)
      errs.push(invalid(path, String(path.child('dataSource')), 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (spec.dataSource && spec.dataSourceRef) {
    const a = spec.dataSource;
    const b = spec.dataSourceRef;
    if (a.apiGroup !== b.apiGroup || a.kind !== b.kind || a.name !== b.name)
      errs.push(invalid(path, String(path.child('dataSource')), 'must match dataSourceRef'));
  }
  return errs;
}

/** ValidatePersistentVolumeClaimTemplate: metadata and spec of an ephemeral volume's claim. */
export function validateClaimTemplate(template: Record<string, unknown>, path: FieldPath): FieldError[] {
  const meta = (template.metadata ?? {}) as Record<string, unknown>;
  return [
    ...validateTemplateObjectMeta(meta, path.child('metadata')),
    ...validateClaimSpec((template.spec ?? {}) as PersistentVolumeClaimSpec, path.child('spec')),
  ];
}
