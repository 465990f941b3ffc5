/**
 * core/v1 Pod: PodSpec defaults (and SetDefaults_Pod), status Pending with its QoS class on create,
 * the scheduling-gated condition, full PodSpec validation (ValidatePodCreate) and the update rules of
 * ValidatePodUpdate.
 */
import { METADATA_FIELDS, type StrategyContext, typedSelectableFields, typedStrategy } from '../../../api/strategy.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, forbidden } from '../../../api/field-errors.js';
import { setPodOnlyDefaults, setPodSpecDefaults } from '../../shared/pod-spec/defaults.js';
import { dropDisabledPodSpecFields } from '../../shared/pod-spec/drop-disabled.js';
import { validateImageWhitespace } from '../../shared/pod-spec/containers.js';
import { validatePodSpec, validatePodSpecificAnnotations } from '../../shared/pod-spec/pod-spec.js';
import type { Pod, PodSpec } from '../../../api/generated/types.js';
import { podQOSClass } from './qos.js';
import { validatePodSpecUpdate } from './update.js';
import { podWarnings } from '../../shared/pod-spec/warnings.js';

/** The pod's spec, created empty when absent (validation then reports what it lacks). */
function podSpec(obj: Pod): PodSpec {
  if (obj.spec === undefined || obj.spec === null) obj.spec = {} as PodSpec;
  return obj.spec;
}

/** Pods with scheduling gates start with PodScheduled=False, reason SchedulingGated. */
function schedulingGatedCondition() {
  return {
    type: 'PodScheduled',
    status: 'False',
    lastProbeTime: null,
    lastTransitionTime: null,
    reason: 'SchedulingGated',
    message: 'Scheduling is blocked due to non-empty scheduling gates',
  };
}

/** Rules of validatePodMetadataAndSpec beyond ValidatePodSpec: pods only. */
function validatePodOnly(spec: PodSpec): FieldError[] {
  const errs: FieldError[] = [];
  const specPath = fieldPath('spec');
  if (!spec.serviceAccountName) {
    (spec.volumes ?? []).forEach((v, i) => {
      const sources = v.projected?.sources ?? [];
      sources.forEach((s, j) => {
        if (s.serviceAccountToken) {
          const at = specPath.child('volumes').index(i).child('projected', 'sources').index(j).child('serviceAccountToken');
          errs.push(forbidden(at, 'must not be specified when serviceAccountName is not set'));
        }
      });
    });
  }
  for (const kind of ['containers', 'initContainers'] as const) {
    (spec[kind] ?? []).forEach((c, i) => errs.push(...validateImageWhitespace(c, specPath.child(kind).index(i))));
  }
  return errs;
}

/** ValidatePodCreate's rules for objects not stored yet. */
function validateCreateOnly(spec: PodSpec): FieldError[] {
  const errs: FieldError[] = [];
  if ((spec.ephemeralContainers ?? []).length > 0)
    errs.push(forbidden(fieldPath('spec', 'ephemeralContainers'), 'cannot be set on create'));
  if (spec.nodeName && (spec.schedulingGates ?? []).length > 0) {
    errs.push(forbidden(fieldPath('spec', 'nodeName'), 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}

/** The rules a pod meets on create and on update alike. */
/** The rules a pod and its ephemeral-containers update share: annotations and the whole spec. */
export function validatePod(obj: Pod, ctx: StrategyContext): FieldError[] {
  const spec = podSpec(obj);
  const errs = validatePodSpecificAnnotations(obj.metadata.annotations, spec, ctx.domain, fieldPath('metadata', 'annotations'));
  errs.push(...validatePodSpec(spec, fieldPath('spec'), { domain: ctx.domain, isPod: true, podName: obj.metadata.name }));
  errs.push(...validatePodOnly(spec));
  return errs;
}

/** SetDefaults_Pod with the pod spec's defaults (a pod and its ephemeral-containers update alike). */
export function applyPodDefaults(obj: Pod): void {
  const spec = podSpec(obj);
  setPodSpecDefaults(obj, spec);
  setPodOnlyDefaults(spec);
}

export const podStrategy = typedStrategy<Pod>({
  gracefulDelete: true,
  warningsOnCreate: (obj, ctx) => podWarnings(obj, ctx.domain.labelPrefix),
  warningsOnUpdate: (obj, _old, ctx) => podWarnings(obj, ctx.domain.labelPrefix),
  applyDefaults: applyPodDefaults,
  prepareForCreate(obj) {
    const spec = podSpec(obj);
    dropDisabledPodSpecFields(spec);
    const status: Record<string, unknown> = { phase: 'Pending', qosClass: podQOSClass(spec) };
    if ((spec.schedulingGates ?? []).length > 0) status.conditions = [schedulingGatedCondition()];
    obj.status = status;
  },
  prepareForUpdate(obj, old) {
    dropDisabledPodSpecFields(podSpec(obj), old.spec);
  },
  validate: (obj, ctx) => [...validatePod(obj, ctx), ...validateCreateOnly(podSpec(obj))],
  validateUpdate(obj, old, ctx) {
    const annotations = { next: obj.metadata.annotations, prev: old.metadata.annotations };
    return [...validatePod(obj, ctx), ...validatePodSpecUpdate(podSpec(obj), old.spec ?? ({} as PodSpec), annotations, ctx.domain)];
  },
});

/** Pod fields usable in field selectors (Kubernetes' PodToSelectableFields). */
export const podSelectableFields = typedSelectableFields<Pod>({
  'spec.nodeName': (o) => o.spec?.nodeName,
  'spec.restartPolicy': (o) => o.spec?.restartPolicy,
  'spec.schedulerName': (o) => o.spec?.schedulerName,
  'spec.serviceAccountName': (o) => o.spec?.serviceAccountName,
  'spec.hostNetwork': (o) => String(o.spec?.hostNetwork === true),
  'status.phase': (o) => o.status?.phase,
  'status.podIP': (o) => o.status?.podIPs?.[0]?.ip,
  // Accepted by the conversion, never set by GetAttrs: it reads ''.
  'status.podIPs': () => '',
  'status.nominatedNodeName': (o) => o.status?.nominatedNodeName,
  ...METADATA_FIELDS,
});

/** Old v1 clients' `spec.host`, converted to `spec.nodeName`. */
export const podFieldLabelAliases = { 'spec.host': 'spec.nodeName' };
