import { jsonEqual } from '../../../api/object.js';
import type { ApiDomain } from '../../../api/domain.js';
import { typedStrategy, typedSubresource } from '../../../api/strategy.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { fieldPath, forbidden, invalid, required, tooLong } from '../../../api/field-errors.js';
import { nameIsDNSSubdomain } from '../../../api/validation/names.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import { STORED_METADATA, withStatusOf } from '../../generic/status-subresource.js';
import { validatePersistentVolumeSpec } from '../../shared/persistent-volume/spec-validation.js';
import { validateCSIDriverName } from '../../shared/pod-spec/volume-sources.js';
import type {
  VolumeAttachment,
  VolumeAttachmentSource,
  VolumeAttachmentSpec,
  VolumeAttachmentStatus,
  VolumeError,
} from '../../../api/generated/types.js';

const MAX_METADATA_SIZE = 256 * 1024;
const MAX_ERROR_MESSAGE = 1024;

function validateSource(source: VolumeAttachmentSource | undefined, path: FieldPath, domain: ApiDomain): FieldError[] {
  const pv = source?.persistentVolumeName;
  const inline = source?.inlineVolumeSpec;
  if (pv === undefined && inline === undefined)
    return [required(path, 'must specify exactly one of inlineVolumeSpec and persistentVolumeName')];
  if (pv !== undefined && inline !== undefined)
    return [forbidden(path, 'must specify exactly one of inlineVolumeSpec and persistentVolumeName')];
  if (pv !== undefined)
    return pv === '' ? [required(path.child('persistentVolumeName'), 'must specify non empty persistentVolumeName')] : [];
  return validatePersistentVolumeSpec({ ...inline! }, { pvName: '', inline: true, domain }, path.child('inlineVolumeSpec'));
}

/** An attach or detach error's message: Kubernetes names the metadata limit in the message. */
function validateVolumeError(e: VolumeError | undefined, path: FieldPath): FieldError[] {
  return e && (e.message ?? '').length > MAX_ERROR_MESSAGE ? [tooLong(path.child('message'), '', MAX_METADATA_SIZE)] : [];
}

/** ValidateVolumeAttachment followed by ValidateVolumeAttachmentV1. */
function validateAttachment(obj: VolumeAttachment, domain: ApiDomain): FieldError[] {
  const spec: Partial<VolumeAttachmentSpec> = obj.spec ?? {};
  const status: Partial<VolumeAttachmentStatus> = obj.status ?? {};
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
function validateSpecUnchanged(obj: VolumeAttachment, old: VolumeAttachment): FieldError[] {
  return jsonEqual(obj.spec, old.spec) ? [] : [invalid(fieldPath('spec'), obj.spec ?? null, FIELD_IMMUTABLE_ERROR_MSG)];
}

/** status.attached is always present (a plain bool in Kubernetes), false until attached. */
function defaultAttached(obj: VolumeAttachment): void {
  obj.status = { ...obj.status, attached: obj.status?.attached ?? false };
}

export const volumeAttachmentStrategy = typedStrategy<VolumeAttachment>({
  prepareForCreate(obj) {
    obj.status = { attached: false };
  },
  validate: (obj, ctx) => validateAttachment(obj, ctx.domain),
  validateUpdate: (obj, old, ctx) => [...validateAttachment(obj, ctx.domain), ...validateSpecUnchanged(obj, old)],
});

/** /status: only status changes (metadata too: ResetObjectMetaForStatus), then the whole attachment is checked again. */
export const volumeAttachmentStatusStrategy = typedSubresource<VolumeAttachment>({
  prepareForUpdate(obj, old, _ctx) {
    const next = withStatusOf(obj, old, STORED_METADATA);
    defaultAttached(next);
    return next;
  },
  validateUpdate: (obj, _old, ctx) => validateAttachment(obj, ctx.domain),
});
