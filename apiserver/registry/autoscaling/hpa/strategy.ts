/**
 * HorizontalPodAutoscaler, autoscaling/v2 and v1: Kubernetes 1.28 defaults (minReplicas 1; v2: a CPU
 * utilization target of 80% when no metric is given, a given behavior completed with the default
 * scaling rules), ValidateHorizontalPodAutoscaler on the v2 form, and /status that changes only status.
 */
import { typedStrategy, typedSubresource } from '../../../api/strategy.js';
import { asApiObject, asKind } from '../../../api/object.js';
import type {
  AutoscalingV1HorizontalPodAutoscaler as V1,
  AutoscalingV2HorizontalPodAutoscaler as V2,
  HPAScalingRules,
} from '../../../api/generated/types.js';
import { withStatusOf } from '../../generic/status-subresource.js';
import { defaultCPUMetric, hpaV1ToV2 } from './conversion.js';
import { validateHPASpec, validateHPAStatus } from './validation.js';

const SCALE_UP: HPAScalingRules = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};
const SCALE_DOWN: HPAScalingRules = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

/** copyHPAScalingRules over the defaults: the given fields win. */
function completeRules(given: HPAScalingRules | undefined, defaults: HPAScalingRules): HPAScalingRules {
  const out: HPAScalingRules = structuredClone(defaults);
  if (given?.selectPolicy !== undefined) out.selectPolicy = given.selectPolicy;
  if (given?.stabilizationWindowSeconds !== undefined) out.stabilizationWindowSeconds = given.stabilizationWindowSeconds;
  if (given?.policies !== undefined) out.policies = given.policies;
  return out;
}

/** The lower bound of minReplicas: 0 only for an HPA that already had 0 (HPAScaleToZero is off). */
const lowerBound = (oldMin: number | undefined) => (oldMin === 0 ? 0 : 1);

const v2Spec = (hpa: V2) => (hpa.spec ??= {} as NonNullable<V2['spec']>);
const v1Spec = (hpa: V1) => (hpa.spec ??= {} as NonNullable<V1['spec']>);
const asV2 = (hpa: V1) => asKind<V2>(hpaV1ToV2(asApiObject(hpa)));

export const hpaV2Strategy = typedStrategy<V2>({
  applyDefaults(hpa) {
    const spec = v2Spec(hpa);
    spec.minReplicas ??= 1;
    if (!spec.metrics?.length) spec.metrics = [defaultCPUMetric()];
    if (spec.behavior) {
      spec.behavior.scaleUp = completeRules(spec.behavior.scaleUp, SCALE_UP);
      spec.behavior.scaleDown = completeRules(spec.behavior.scaleDown, SCALE_DOWN);
    }
  },
  prepareForCreate(hpa) {
    hpa.status = { desiredReplicas: 0 };
  },
  validate: (hpa) => validateHPASpec(v2Spec(hpa), 1),
  validateUpdate: (hpa, old) => validateHPASpec(v2Spec(hpa), lowerBound(old.spec?.minReplicas)),
});

export const hpaV1Strategy = typedStrategy<V1>({
  applyDefaults(hpa) {
    v1Spec(hpa).minReplicas ??= 1;
  },
  prepareForCreate(hpa) {
    hpa.status = { currentReplicas: 0, desiredReplicas: 0 };
  },
  validate: (hpa) => validateHPASpec(asV2(hpa).spec ?? {}, 1),
  validateUpdate: (hpa, old) => validateHPASpec(asV2(hpa).spec ?? {}, lowerBound(old.spec?.minReplicas)),
});

export const hpaV2StatusStrategy = typedSubresource<V2>({
  prepareForUpdate: (hpa, old) => withStatusOf(hpa, old),
  validateUpdate: (hpa) => validateHPAStatus(hpa.status),
});

export const hpaV1StatusStrategy = typedSubresource<V1>({
  prepareForUpdate: (hpa, old) => withStatusOf(hpa, old),
  validateUpdate: (hpa) => validateHPAStatus(hpa.status),
});
