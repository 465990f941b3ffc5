/**
 * PersistentVolume: defaults (reclaim policy Retain, volume mode Filesystem, source defaults, phase
 * Pending), spec validation, and the update rules: the volume source and volume mode never change, a set
 * node affinity only from beta to GA topology labels. Status changes only through /status.
 */
import { deepCopy, jsonEqual } from '../../../api/object.js';
import type { ApiDomain } from '../../../api/domain.js';
import { type StrategyContext, typedStrategy, typedSubresource } from '../../../api/strategy.js';
import type { PersistentVolume, PersistentVolumeSpec, VolumeNodeAffinity } from '../../../api/generated/types.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, forbidden, invalid } from '../../../api/field-errors.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import { withStatusOf } from '../../generic/status-subresource.js';
import { validatePersistentVolumeSpec } from '../../shared/persistent-volume/spec-validation.js';
import { applyVolumeSourceDefaults, VOLUME_SOURCE_FIELDS } from '../../shared/persistent-volume/volume-sources.js';
import { specDiff } from '../pod/update.js';
import { decodeResourceList } from '../../shared/pod-spec/quantities.js';

function spec(obj: PersistentVolume): PersistentVolumeSpec {
  return obj.spec ?? {};
}

/** The spec's fields by name (a shallow copy: the sources are the spec's own), for the code that takes volume sources by name. */
const fields = (s: PersistentVolumeSpec): Record<string, unknown> => ({ ...s });

/** Sources whose plugins take mount options. */
const MOUNT_OPTION_SOURCES: readonly (keyof PersistentVolumeSpec)[] = [
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'glusterfs',
  'nfs',
  'rbd',
  'quobyte',
  'iscsi',
  'cinder',
  'cephfs',
  'azureFile',
  'vsphereVolume',
  'azureDisk',
  'photonPersistentDisk',
];

/** Status with the phase defaulted to Pending. */
function defaultPhase(obj: PersistentVolume): void {
  const status = obj.status ?? {};
  if (!status.phase) status.phase = 'Pending';
  obj.status = status;
}

/** The mount-options annotation is only for sources that support it (pkg/volume/validation). */
function validateMountOptionAnnotation(obj: PersistentVolume, domain: ApiDomain): FieldError[] {
  const key = `volume.beta.${domain.labelPrefix}/mount-options`;
  if (!Object.hasOwn(obj.metadata.annotations ?? {}, key)) return [];
  if (MOUNT_OPTION_SOURCES.some((f) => spec(obj)[f] !== undefined)) return [];
  return [forbidden(fieldPath('metadata', 'annotations', key), 'may not specify mount options for this volume type')];
}

/** The spec's volume source: the source fields that are set. */
function volumeSource(spec: PersistentVolumeSpec): Record<string, unknown> {
  const s = fields(spec);
  return Object.fromEntries(VOLUME_SOURCE_FIELDS.filter((f) => s[f] !== undefined).map((f) => [f, s[f]]));
}

/** Beta topology labels and the GA labels a node affinity may move to. */
function betaToGALabels(prefix: string): Record<string, string> {
  return {
    [`failure-domain.beta.${prefix}/zone`]: `topology.${prefix}/zone`,
    [`failure-domain.beta.${prefix}/region`]: `topology.${prefix}/region`,
    [`beta.${prefix}/os`]: `${prefix}/os`,
    [`beta.${prefix}/arch`]: `${prefix}/arch`,
    [`beta.${prefix}/instance-type`]: `node.${prefix}/instance-type`,
  };
}

/** Equal, counting a requirement whose key moved from a beta label to its GA label as unchanged. */
function sameAffinityExceptGALabels(next: VolumeNodeAffinity | undefined, old: VolumeNodeAffinity, prefix: string): boolean {
  const mapping = betaToGALabels(prefix);
  const masked = deepCopy(old);
  const newTerms = next?.required?.nodeSelectorTerms ?? [];
  (masked.required?.nodeSelectorTerms ?? []).forEach((term, i) => {
    for (const list of ['matchExpressions', 'matchFields'] as const) {
      (term[list] ?? []).forEach((req, j) => {
        const newKey = newTerms[i]?.[list]?.[j]?.key;
        if (newKey !== undefined && req.key !== newKey && mapping[req.key ?? ''] === newKey) req.key = newKey;
      });
    }
  });
  return jsonEqual(next, masked);
}

function validatePersistentVolume(obj: PersistentVolume, ctx: StrategyContext): FieldError[] {
  const errors = validatePersistentVolumeSpec(
    spec(obj),
    { pvName: obj.metadata.name ?? '', inline: false, domain: ctx.domain },
    fieldPath('spec'),
  );
  return [...errors, ...validateMountOptionAnnotation(obj, ctx.domain)];
}

export const persistentVolumeStrategy = typedStrategy<PersistentVolume>({
  applyDefaults(obj) {
    const s = (obj.spec ??= {});
    if (!s.persistentVolumeReclaimPolicy) s.persistentVolumeReclaimPolicy = 'Retain';
    if (s.volumeMode === undefined) s.volumeMode = 'Filesystem';
    applyVolumeSourceDefaults(fields(s)); // fills the sources in place
    decodeResourceList(obj, s.capacity);
  },
  prepareForCreate(obj) {
    obj.status = {};
    defaultPhase(obj);
  },
  validate: validatePersistentVolume,
  validateUpdate(obj, old, ctx) {
    const errors = validatePersistentVolume(obj, ctx);
    const next = spec(obj);
    const prev = spec(old);
    const newSource = volumeSource(next);
    const oldSource = volumeSource(prev);
    // A CSI volume may gain a controllerExpandSecretRef it did not have.
    const oldCSI = prev.csi;
    const newCSI = next.csi;
    if (oldCSI && newCSI && oldCSI.controllerExpandSecretRef === undefined && newCSI.controllerExpandSecretRef !== undefined) {
      const { controllerExpandSecretRef: _added, ...rest } = newCSI;
      newSource.csi = rest;
    }
    if (!jsonEqual(newSource, oldSource)) {
      errors.push(
        forbidden(
          fieldPath('spec', 'persistentvolumesource'),
          `spec.persistentvolumesource is immutable after creation\n${specDiff(oldSource, newSource)}`,
        ),
      );
    }
    if (!jsonEqual(next.volumeMode, prev.volumeMode))
      errors.push(invalid('volumeMode', next.volumeMode ?? null, FIELD_IMMUTABLE_ERROR_MSG));
    const oldAffinity = prev.nodeAffinity;
    if (oldAffinity && !sameAffinityExceptGALabels(next.nodeAffinity, oldAffinity, ctx.domain.labelPrefix)) {
      errors.push(
        invalid('nodeAffinity', next.nodeAffinity ?? null, `${FIELD_IMMUTABLE_ERROR_MSG}, except for updating from beta label to GA`),
      );
    }
    return errors;
  },
});

/** /status: only status changes; an empty phase defaults to Pending. */
export const persistentVolumeStatusStrategy = typedSubresource<PersistentVolume>({
  prepareForUpdate(obj, old) {
    const next = withStatusOf(obj, old);
    defaultPhase(next);
    return next;
  },
});
