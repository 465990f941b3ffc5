/**
 * CSIDriver: spec defaults (attachRequired true; podInfoOnMount, storageCapacity, requiresRepublish
 * and seLinuxMount false; fsGroupPolicy ReadWriteOnceWithFSType; volumeLifecycleModes [Persistent]),
 * enums and token requests checked; attachRequired, fsGroupPolicy, podInfoOnMount and
 * volumeLifecycleModes never change (mutable only from Kubernetes 1.29 on).
 */
import { jsonEqual } from '../../../api/object.js';
import { typedStrategy } from '../../../api/strategy.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, fieldPath, goTyped, invalid, notSupported, required } from '../../../api/field-errors.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import type { CSIDriver, CSIDriverSpec } from '../../../api/generated/types.js';

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];
const MIN_TOKEN_SECONDS = 10 * 60;
const MAX_TOKEN_SECONDS = 2 ** 32;

/** The spec, empty when absent (validation then reports its required flags). */
const spec = (obj: CSIDriver): CSIDriverSpec => obj.spec ?? {};

/** The boolean fields that must be set (after defaults) and the path Kubernetes reports them under. */
const REQUIRED_FLAGS: [keyof CSIDriverSpec, string][] = [
  ['attachRequired', 'attachedRequired'],
  ['podInfoOnMount', 'podInfoOnMount'],
  ['storageCapacity', 'storageCapacity'],
];

/** Fields fixed after creation, with the path Kubernetes reports them under. */
const IMMUTABLE: [keyof CSIDriverSpec, string][] = [
  ['attachRequired', 'attachedRequired'],
  ['fsGroupPolicy', 'fsGroupPolicy'],
  ['podInfoOnMount', 'podInfoOnMount'],
  ['volumeLifecycleModes', 'volumeLifecycleModes'],
];

function validateTokenRequests(requests: CSIDriverSpec['tokenRequests'], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const audiences = new Set<string>();
  (requests ?? []).forEach((r, i) => {
    const p = path.index(i);
    const audience = r.audience ?? '';
    if (audiences.has(audience)) {
      errors.push(duplicate(p.child('audience'), audience));
      return;
    }
    audiences.add(audience);
    const seconds = r.expirationSeconds;
    if (seconds === undefined) return;
    if (seconds < MIN_TOKEN_SECONDS)
      errors.push(invalid(p.child('expirationSeconds'), seconds, 'may not specify a duration less than 10 minutes'));
    if (seconds > MAX_TOKEN_SECONDS)
      errors.push(invalid(p.child('expirationSeconds'), seconds, 'may not specify a duration larger than 2^32 seconds'));
  });
  return errors;
}

function validateSpec(s: CSIDriverSpec): FieldError[] {
  const path = fieldPath('spec');
  const errors: FieldError[] = [];
  for (const [field, name] of REQUIRED_FLAGS) if (s[field] === undefined) errors.push(required(path.child(name), ''));
  if (s.fsGroupPolicy !== undefined && !FS_GROUP_POLICIES.includes(s.fsGroupPolicy)) {
    errors.push(notSupported(path.child('fsGroupPolicy'), s.fsGroupPolicy, FS_GROUP_POLICIES));
  }
  errors.push(...validateTokenRequests(s.tokenRequests, path.child('tokenRequests')));
  for (const mode of s.volumeLifecycleModes ?? []) {
    if (!LIFECYCLE_MODES.includes(mode)) errors.push(notSupported(path.child('volumeLifecycleModes'), mode, LIFECYCLE_MODES));
  }
  if (s.seLinuxMount === undefined) errors.push(required(path.child('seLinuxMount'), ''));
  return errors;
}

export const csiDriverStrategy = typedStrategy<CSIDriver>({
  applyDefaults(obj) {
    const s = spec(obj);
    s.attachRequired ??= true;
    s.podInfoOnMount ??= false;
    s.storageCapacity ??= false;
    s.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
    if ((s.volumeLifecycleModes ?? []).length === 0) s.volumeLifecycleModes = ['Persistent'];
    s.requiresRepublish ??= false;
    s.seLinuxMount ??= false;
    obj.spec = s;
  },
  validate: (obj) => validateSpec(spec(obj)),
  validateUpdate(obj, old) {
    const [next, prev] = [spec(obj), spec(old)];
    const immutable = IMMUTABLE.filter(([field]) => !jsonEqual(next[field], prev[field])).map(([field, name]) =>
      invalid(
        fieldPath('spec', name),
        field === 'volumeLifecycleModes' ? goTyped('[]storage.VolumeLifecycleMode', next[field] ?? null) : (next[field] ?? null),
        FIELD_IMMUTABLE_ERROR_MSG,
      ),
    );
    return [...validateSpec(next), ...immutable];
  },
});
