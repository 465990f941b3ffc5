/**
 * PersistentVolume: defaults (reclaim policy Retain, volume mode Filesystem, source defaults, phase
 * Pending), spec validation, and the update rules: the volume source and volume mode never change, a set
 * node affinity only from beta to GA topology labels. Status changes only through /status.
 */
import type { ApiObject } from '../../../api/object.js';
import { deepCopy, jsonEqual } from '../../../api/object.js';
import type { ApiDomain } from '../../../api/domain.js';
import type { Strategy, StrategyContext, SubresourceStrategy } from '../../../api/strategy.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, forbidden, invalid } from '../../../api/field-errors.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import { statusSubresource } from '../../status-subresource.js';
import { validatePersistentVolumeSpec } from './spec-validation.js';
import { applyVolumeSourceDefaults, VOLUME_SOURCE_FIELDS } from './volume-sources.js';
import { specDiff } from '../pod/update.js';
import { decodeResourceList } from '../pod-spec/quantities.js';

type Spec = Record<string, unknown>;

const spec = (obj: ApiObject): Spec => (obj.spec ?? {}) as Spec;

/** Sources whose plugins take mount options. */
const MOUNT_OPTION_SOURCES = [
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
function defaultPhase(obj: ApiObject): void {
  const status = (obj.status ?? {}) as { phase?: string };
  if (!status.phase) status.phase = 'Pending';
  obj.status = status;
}

/** The mount-options annotation is only for sources that support it (pkg/volume/validation). */
function validateMountOptionAnnotation(obj: ApiObject, domain: ApiDomain): FieldError[] {
  const key = `volume.beta.${domain.labelPrefix}/mount-options`;
  if (!Object.hasOwn(obj.metadata.annotations ?? {}, key)) return [];
  if (MOUNT_OPTION_SOURCES.some((f) => spec(obj)[f] !== undefined)) return [];
  return [forbidden(fieldPath('metadata', 'annotations', key), 'may not specify mount options for this volume type')];
}

function volumeSource(s: Spec): Spec {
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

type Requirement = { key?: string };
type Affinity = { required?: { nodeSelectorTerms?: { matchExpressions?: Requirement[]; matchFields?: Requirement[] }[] } };

/** Equal, counting a requirement whose key moved from a beta label to its GA label as unchanged. */
function sameAffinityExceptGALabels(next: Affinity | undefined, old: Affinity, prefix: string): boolean {
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

function validatePersistentVolume(obj: ApiObject, ctx: StrategyContext): FieldError[] {
  const errors = validatePersistentVolumeSpec(
    spec(obj),
    { pvName: obj.metadata.name ?? '', inline: false, domain: ctx.domain },
    fieldPath('spec'),
  );
  return [...errors, ...validateMountOptionAnnotation(obj, ctx.domain)];
}

export const persistentVolumeStrategy: Strategy = {
  applyDefaults(obj) {
    const s = spec(obj);
    if (!s.persistentVolumeReclaimPolicy) s.persistentVolumeReclaimPolicy = 'Retain';
    if (s.volumeMode === undefined) s.volumeMode = 'Filesystem';
    applyVolumeSourceDefaults(s);
    decodeResourceList(obj, s.capacity as Record<string, string> | undefined);
    obj.spec = s;
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
    const oldCSI = oldSource.csi as Spec | undefined;
    const newCSI = newSource.csi as Spec | undefined;
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
    const oldAffinity = prev.nodeAffinity as Affinity | undefined;
    if (oldAffinity && !sameAffinityExceptGALabels(next.nodeAffinity as Affinity | undefined, oldAffinity, ctx.domain.labelPrefix)) {
      errors.push(
        invalid('nodeAffinity', next.nodeAffinity ?? null, `${FIELD_IMMUTABLE_ERROR_MSG}, except for updating from beta label to GA`),
      );
    }
    return errors;
  },
};

/** /status: only status changes; an empty phase defaults to Pending. */
export const persistentVolumeStatusStrategy: SubresourceStrategy = {
  prepareForUpdate(obj, old, ctx) {
    const next = statusSubresource.prepareForUpdate(obj, old, ctx);
    defaultPhase(next);
    return next;
  },
};
