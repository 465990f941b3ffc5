/**
 * ValidateVolumes: each volume a unique DNS-label name and exactly one source (validated by its own
 * rules), wherever a pod spec is: pods, pod templates, workload templates.
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, forbidden, invalid, required } from '../../../api/field-errors.js';
import { isDNS1123Label, nameIsDNSSubdomain } from '../../../api/validation/names.js';
import { SOURCE_RULES } from './volume-sources.js';
import type { Volume } from '../../../api/generated/types.js';

type Source = Record<string, unknown>;

const isObject = (v: unknown): v is Source => v !== null && typeof v === 'object' && !Array.isArray(v);

/** validateVolumeSource: exactly one source; the first one set is validated, the others are forbidden. */
function validateVolumeSource(volume: Volume, path: FieldPath, podName: string | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const name = volume.name ?? '';
  let count = 0;
  const sources = new Map(Object.entries(volume));
  for (const { field, forbiddenAs, validateAs, rule } of SOURCE_RULES) {
    const source = sources.get(field);
    if (!isObject(source)) continue;
    if (count > 0) {
      errs.push(forbidden(path.child(forbiddenAs), 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errs.push(...rule(source, path.child(validateAs), name));
    if (field === 'iscsi' && typeof source.initiatorName === 'string' && `${name}:${String(source.targetPortal ?? '')}`.length > 64) {
      const detail = 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.';
      errs.push(invalid(path.child('name'), name, detail));
    }
    if (field === 'ephemeral' && podName && name) {
      const claimName = `${podName}-${name}`;
      for (const msg of nameIsDNSSubdomain(claimName, false))
        errs.push(invalid(path.child('name'), name, `PVC name "${claimName}": ${msg}`));
    }
  }
  if (count === 0) errs.push(required(path, 'must specify a volume type'));
  return errs;
}

/** The result of ValidateVolumes: the valid volumes by name (what mounts may reference) and the errors. */
export interface VolumesResult {
  volumes: Map<string, Volume>;
  errors: FieldError[];
}

/**
 * ValidateVolumes. `podName` is the pod's own name when validating a Pod (ephemeral volumes' claim
 * names derive from it); templates pass undefined.
 */
export function validateVolumes(list: Volume[] | undefined, path: FieldPath, podName?: string): VolumesResult {
  const volumes = new Map<string, Volume>();
  const errors: FieldError[] = [];
  const createdClaims = new Set((list ?? []).filter((v) => podName && isObject(v.ephemeral)).map((v) => `${podName}-${v.name ?? ''}`));
  (list ?? []).forEach((volume, i) => {
    const at = path.index(i);
    const name = volume.name ?? '';
    const errs = validateVolumeSource(volume, at, podName);
    if (!name) errs.push(required(at.child('name')));
    else errs.push(...isDNS1123Label(name).map((m) => invalid(at.child('name'), name, m)));
    if (volumes.has(name)) errs.push(duplicate(at.child('name'), name));
    if (errs.length === 0) volumes.set(name, volume);
    else errors.push(...errs);
    const claim = isObject(volume.persistentVolumeClaim) ? String(volume.persistentVolumeClaim.claimName ?? '') : undefined;
    if (claim !== undefined && createdClaims.has(claim)) {
      errors.push(
        invalid(
          at.child('persistentVolumeClaim', 'claimName'),
          claim,
          'must not reference a PVC that gets created for an ephemeral volume',
        ),
      );
    }
  });
  return { volumes, errors };
}
