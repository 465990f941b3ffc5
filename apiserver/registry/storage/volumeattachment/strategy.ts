/**
 * VolumeAttachment (storage/v1): attacher a CSI driver name, exactly one source (a PV name or an inline
 * CSI volume spec), a node name; status metadata and errors bounded; the spec never changes. A new
 * attachment starts detached; status changes through /status.
 */
import type { ApiObject } from '../../../api/object.js';
import { jsonEqual } from '../../../api/object.js';
import type { ApiDomain } from '../../../api/domain.js';
import type { Strategy, SubresourceStrategy } from '../../../api/strategy.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { fieldPath, forbidden, invalid, required, tooLong } from '../../../api/field-errors.js';
import { nameIsDNSSubdomain } from '../../../api/validation/names.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import { statusSubresource } from '../../status-subresource.js';
import { validatePersistentVolumeSpec } from '../../core/persistentvolume/spec-validation.js';
import { validateCSIDriverName } from '../../core/pod-spec/volume-sources.js';

type VolumeError = { message?: string };

interface AttachmentFields {
  spec?: { attacher?: string; nodeName?: string; source?: { persistentVolumeName?: string; inlineVolumeSpec?: Record<string, unknown> } };
  status?: { attached?: boolean; attachmentMetadata?: Record<string, string>; attachError?: VolumeError; detachError?: VolumeError };
}

const MAX_METADATA_SIZE = 256 * 1024;
const MAX_ERROR_MESSAGE = 1024;

const va = (obj: ApiObject): AttachmentFields => obj as AttachmentFields;

function validateSource(source: NonNullable<AttachmentFields['spec']>['source'], path: FieldPath, domain: ApiDomain): FieldError[] {
  const pv = source?.persistentVolumeName;
  const inline = source?.inlineVolumeSpec;
  if (pv === undefined && inline === undefined)
    return [required(path, 'must specify exactly one of inlineVolumeSpec and persistentVolumeName')];
  if (pv !== undefined && inline !== undefined)
    return [forbidden(path, 'must specify exactly one of inlineVolumeSpec and persistentVolumeName')];
  if (pv !== undefined)
    return pv === '' ? [required(path.child('persistentVolumeName'), 'must specify non empty persistentVolumeName')] : [];
  return validatePersistentVolumeSpec(inline!, { pvName: '', inline: true, domain }, path.child('inlineVolumeSpec'));
}

/** An attach or detach error's message: Kubernetes names the metadata limit in the message. */
function validateVolumeError(e: VolumeError | undefined, path: FieldPath): FieldError[] {
  return e && (e.message ?? '').length > MAX_ERROR_MESSAGE ? [tooLong(path.child('message'), '', MAX_METADATA_SIZE)] : [];
}

/** ValidateVolumeAttachment followed by ValidateVolumeAttachmentV1. */
function validateAttachment(obj: ApiObject, domain: ApiDomain): FieldError[] {
  const spec = va(obj).spec ?? {};
  const status = va(obj).status ?? {};
  const errors: FieldError[] = [];
  const attacher = spec.attacher ?? '';
  if (!attacher) errors.push(required(fieldPath('spec', 'attacher'), ''));
  errors.push(...validateSource(spec.source, fieldPath('spec', 'source'), domain));
  const nodeName = spec.nodeName ?? '';
  errors.push(...nameIsDNSSubdomain(nodeName, false).map((m) => invalid(fieldPath('spec', 'nodeName'), nodeName, m)));
  let metadataSize = 0;
  for (const [k, v] of Object.entries(status.attachmentMetadata ?? {})) metadataSize += Buffer.byteLength(k) + Buffer.byteLength(v);
  if (metadataSize > MAX_METADATA_SIZE) errors.push(tooLong(fieldPath('status', 'attachmentMetadata'), '', MAX_METADATA_SIZE));
  errors.push(...validateVolumeError(status.attachError, fieldPath('status', 'attachError')));
  errors.push(...validateVolumeError(status.detachError, fieldPath('status', 'detachError')));
  errors.push(...validateCSIDriverName(attacher, fieldPath('spec', 'attacher')));
  const pvName = spec.source?.persistentVolumeName;
  if (pvName !== undefined) {
    errors.push(...nameIsDNSSubdomain(pvName, false).map((m) => invalid(fieldPath('spec', 'source', 'persistentVolumeName'), pvName, m)));
  }
  return errors;
}

/** Spec is read-only. */
function validateSpecUnchanged(obj: ApiObject, old: ApiObject): FieldError[] {
  return jsonEqual(va(obj).spec, va(old).spec) ? [] : [invalid(fieldPath('spec'), va(obj).spec ?? null, FIELD_IMMUTABLE_ERROR_MSG)];
}

/** status.attached is always present (a plain bool in Kubernetes), false until attached. */
function defaultAttached(obj: ApiObject): void {
  const status = (obj.status ?? {}) as NonNullable<AttachmentFields['status']>;
  status.attached ??= false;
  obj.status = status;
}

export const volumeAttachmentStrategy: Strategy = {
  prepareForCreate(obj) {
    obj.status = {};
    defaultAttached(obj);
  },
  validate: (obj, ctx) => validateAttachment(obj, ctx.domain),
  validateUpdate: (obj, old, ctx) => [...validateAttachment(obj, ctx.domain), ...validateSpecUnchanged(obj, old)],
};

/** /status: only status changes, then the whole attachment is checked again. */
export const volumeAttachmentStatusStrategy: SubresourceStrategy = {
  prepareForUpdate(obj, old, ctx) {
    const next = statusSubresource.prepareForUpdate(obj, old, ctx);
    defaultAttached(next);
    return next;
  },
  validateUpdate: (obj, _old, ctx) => validateAttachment(obj, ctx.domain),
};
