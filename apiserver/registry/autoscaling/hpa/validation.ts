/**
 * ValidateHorizontalPodAutoscaler(Update/StatusUpdate), Kubernetes 1.28, on the autoscaling/v2 form (v1
 * objects are converted first, so their errors name the v2 fields, as Kubernetes' internal ones do).
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { fieldPath, forbidden, invalid, notSupported, required } from '../../../api/field-errors.js';
import type {
  AutoscalingV2CrossVersionObjectReference,
  AutoscalingV2HorizontalPodAutoscalerSpec,
  HPAScalingRules,
  HorizontalPodAutoscalerBehavior,
  MetricIdentifier,
  MetricSpec,
  MetricTarget,
} from '../../../api/generated/types.js';
import { validatePathSegmentName, isDNS1123Label } from '../../../api/validation/names.js';
import { quantityFrom, quantitySign } from '../../../api/quantity.js';
import { validateNonnegative } from '../../shared/pod-spec/value-checks.js';

const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];
const SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];

export function validateCrossVersionObjectReference(
  ref: Partial<AutoscalingV2CrossVersionObjectReference> | undefined,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['kind', 'name'] as const) {
    const v = ref?.[f] ?? '';
    if (!v) errs.push(required(path.child(f)));
    else for (const msg of validatePathSegmentName(v, false)) errs.push(invalid(path.child(f), v, msg));
  }
  return errs;
}

function positive(value: unknown): boolean {
  try {
    return quantitySign(quantityFrom(value)) === 1;
  } catch {
    return false;
  }
}

function validateMetricTarget(t: Partial<MetricTarget>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!t.type) errs.push(required(path.child('type'), 'must specify a metric target type'));
  if (!['Utilization', 'Value', 'AverageValue'].includes(t.type ?? '')) {
    errs.push(invalid(path.child('type'), t.type ?? '', 'must be either Utilization, Value, or AverageValue'));
  }
  if (t.value !== undefined && !positive(t.value)) errs.push(invalid(path.child('value'), t.value, 'must be positive'));
  if (t.averageValue !== undefined && !positive(t.averageValue))
    errs.push(invalid(path.child('averageValue'), t.averageValue, 'must be positive'));
  if (t.averageUtilization !== undefined && t.averageUtilization < 1) {
    errs.push(invalid(path.child('averageUtilization'), t.averageUtilization, 'must be greater than 0'));
  }
  return errs;
}

function validateMetricIdentifier(id: Partial<MetricIdentifier> | undefined, path: FieldPath): FieldError[] {
  const name = id?.name ?? '';
  if (!name) return [required(path.child('name'), 'must specify a metric name')];
  return validatePathSegmentName(name, false).map((msg) => invalid(path.child('name'), name, msg));
}

/** A MetricSpec's source fields, in the order Kubernetes checks them. */
const SOURCE_FIELDS = ['object', 'external', 'pods', 'resource', 'containerResource'] as const;
type SourceField = (typeof SOURCE_FIELDS)[number];

type Source = {
  target?: Partial<MetricTarget>;
  metric?: MetricIdentifier;
  name?: string;
  container?: string;
  describedObject?: AutoscalingV2CrossVersionObjectReference;
};

/** The checks of one metric source, by its field name. */
const SOURCE_CHECKS: Record<SourceField, (src: Source, path: FieldPath) => FieldError[]> = {
  object(src, path) {
    const t = src.target ?? {};
    const errs = [
      ...validateCrossVersionObjectReference(src.describedObject, path.child('describedObject')),
      ...validateMetricIdentifier(src.metric, path.child('metric')),
      ...validateMetricTarget(t, path.child('target')),
    ];
    if (t.value === undefined && t.averageValue === undefined) {
      errs.push(required(path.child('target', 'averageValue'), 'must set either a target value or averageValue'));
    }
    return errs;
  },
  external(src, path) {
    const t = src.target ?? {};
    const errs = [...validateMetricIdentifier(src.metric, path.child('metric')), ...validateMetricTarget(t, path.child('target'))];
    if (t.value === undefined && t.averageValue === undefined) {
      errs.push(required(path.child('target', 'averageValue'), 'must set either a target value for metric or a per-pod target'));
    }
    if (t.value !== undefined && t.averageValue !== undefined) {
      errs.push(forbidden(path.child('target', 'value'), 'may not set both a target value for metric and a per-pod target'));
    }
    return errs;
  },
  pods(src, path) {
    const t = src.target ?? {};
    const errs = [...validateMetricIdentifier(src.metric, path.child('metric')), ...validateMetricTarget(t, path.child('target'))];
    if (t.averageValue === undefined)
      errs.push(required(path.child('target', 'averageValue'), 'must specify a positive target averageValue'));
    return errs;
  },
  resource(src, path) {
    const errs: FieldError[] = [];
    if (!src.name) errs.push(required(path.child('name'), 'must specify a resource name'));
    return [...errs, ...validateUtilizationOrValue(src.target ?? {}, path)];
  },
  containerResource(src, path) {
    const errs: FieldError[] = [];
    if (!src.name) errs.push(required(path.child('name'), 'must specify a resource name'));
    if (!src.container) errs.push(required(path.child('container'), 'must specify a container'));
    else for (const msg of isDNS1123Label(src.container)) errs.push(invalid(path.child('container'), src.container, msg));
    return [...errs, ...validateUtilizationOrValue(src.target ?? {}, path)];
  },
};

function validateUtilizationOrValue(t: Partial<MetricTarget>, path: FieldPath): FieldError[] {
  const errs = validateMetricTarget(t, path.child('target'));
  if (t.averageUtilization === undefined && t.averageValue === undefined) {
    errs.push(required(path.child('target', 'averageUtilization'), 'must set either a target raw value or a target utilization'));
  }
  if (t.averageUtilization !== undefined && t.averageValue !== undefined) {
    errs.push(forbidden(path.child('target', 'averageValue'), 'may not set both a target raw value and a target utilization'));
  }
  return errs;
}

/** The field of each metric source type. */
const SOURCE_FIELD: Record<string, SourceField | undefined> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  External: 'external',
  ContainerResource: 'containerResource',
};

function validateMetricSpec(m: MetricSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = m.type ?? '';
  if (!type) errs.push(required(path.child('type'), 'must specify a metric source type'));
  if (!SOURCE_TYPES.includes(type)) errs.push(notSupported(path.child('type'), type, SOURCE_TYPES));
  // Kubernetes checks the present sources in this order and validates only the first.
  const present = SOURCE_FIELDS.filter((f) => m[f] !== undefined);
  if (present.length) errs.push(...SOURCE_CHECKS[present[0]](m[present[0]]!, path.child(present[0])));
  const expected = SOURCE_FIELD[type];
  if (expected && m[expected] === undefined) {
    errs.push(required(path.child(expected), 'must populate information for the given metric source'));
  }
  if (!expected) errs.push(notSupported(path.child('type'), type, SOURCE_TYPES));
  if (present.length !== 1)
    for (const f of present.filter((f) => f !== expected))
      errs.push(forbidden(path.child(f), 'must populate the given metric source only'));
  return errs;
}

function validateScalingRules(rules: HPAScalingRules | undefined, path: FieldPath): FieldError[] {
  if (!rules) return [];
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (window !== undefined && window < 0)
    errs.push(invalid(path.child('stabilizationWindowSeconds'), window, 'must be greater than or equal to zero'));
  if (window !== undefined && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errs.push(
      invalid(path.child('stabilizationWindowSeconds'), window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`),
    );
  }
  if (rules.selectPolicy !== undefined && !SELECT_POLICIES.includes(rules.selectPolicy)) {
    errs.push(notSupported(path.child('selectPolicy'), rules.selectPolicy, SELECT_POLICIES));
  }
  const policies = rules.policies ?? [];
  if (policies.length === 0) errs.push(required(path.child('policies'), 'must specify at least one Policy'));
  for (const [i, p] of policies.entries()) {
    const pp = path.child('policies').index(i);
    if (!POLICY_TYPES.includes(p.type ?? '')) errs.push(notSupported(pp.child('type'), p.type ?? '', POLICY_TYPES));
    if (!((p.value ?? 0) > 0)) errs.push(invalid(pp.child('value'), p.value ?? 0, 'must be greater than zero'));
    if (!((p.periodSeconds ?? 0) > 0)) errs.push(invalid(pp.child('periodSeconds'), p.periodSeconds ?? 0, 'must be greater than zero'));
    if ((p.periodSeconds ?? 0) > MAX_PERIOD_SECONDS) {
      errs.push(invalid(pp.child('periodSeconds'), p.periodSeconds, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
    }
  }
  return errs;
}

function validateBehavior(b: HorizontalPodAutoscalerBehavior | undefined, path: FieldPath): FieldError[] {
  if (!b) return [];
  return [...validateScalingRules(b.scaleUp, path.child('scaleUp')), ...validateScalingRules(b.scaleDown, path.child('scaleDown'))];
}

/** The spec rules; `minReplicasLowerBound` is 1, or 0 on an update of an HPA already at minReplicas 0. */
export function validateHPASpec(spec: Partial<AutoscalingV2HorizontalPodAutoscalerSpec>, minReplicasLowerBound: number): FieldError[] {
  const path = fieldPath('spec');
  const errs: FieldError[] = [];
  const min = spec.minReplicas;
  const max = spec.maxReplicas ?? 0;
  if (min !== undefined && min < minReplicasLowerBound) {
    errs.push(invalid(path.child('minReplicas'), min, `must be greater than or equal to ${minReplicasLowerBound}`));
  }
  if (max < 1) errs.push(invalid(path.child('maxReplicas'), max, 'must be greater than 0'));
  if (min !== undefined && max < min) errs.push(invalid(path.child('maxReplicas'), max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionObjectReference(spec.scaleTargetRef, path.child('scaleTargetRef')));
  const metrics = spec.metrics ?? [];
  for (const [i, m] of metrics.entries()) errs.push(...validateMetricSpec(m, path.child('metrics').index(i)));
  if (min === 0 && !metrics.some((m) => m.type === 'Object' || m.type === 'External')) {
    errs.push(forbidden(path.child('metrics'), 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  errs.push(...validateBehavior(spec.behavior, path.child('behavior')));
  return errs;
}

/** The /status rules: replica counts not negative. */
export function validateHPAStatus(status: { currentReplicas?: number; desiredReplicas?: number } | undefined): FieldError[] {
  return [
    ...validateNonnegative(status?.currentReplicas ?? 0, fieldPath('status', 'currentReplicas')),
    ...validateNonnegative(status?.desiredReplicas ?? 0, fieldPath('status', 'desiredReplicas')),
  ];
}
