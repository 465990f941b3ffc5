/**
 * autoscaling/v1 HorizontalPodAutoscaler ↔ the stored autoscaling/v2 one, as Kubernetes converts them
 * (pkg/apis/autoscaling/v1/conversion.go): v1 carries the CPU utilization target and current value
 * itself and everything else v2 has — other metrics, current metrics, behavior, conditions — as JSON
 * in round-trip annotations, so an object written through either version reads back unchanged
 * through the other.
 */
import { type ApiObject, asKind } from '../../../api/object.js';
import { withoutUndefined } from '../../../api/without-undefined.js';
import type { StorageConversion } from '../../../api/resource.js';
import type {
  AutoscalingV1HorizontalPodAutoscaler as V1,
  AutoscalingV2HorizontalPodAutoscaler as V2,
  HPAScalingRules,
  HorizontalPodAutoscalerBehavior,
  MetricSpec,
  MetricStatus,
} from '../../../api/generated/types.js';
import { metricSpecFromV1, metricSpecToV1, metricStatusFromV1, metricStatusToV1, type V1MetricList } from './metrics-v1.js';

export const METRIC_SPECS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const METRIC_STATUSES_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
const ROUND_TRIP = [METRIC_SPECS_ANNOTATION, METRIC_STATUSES_ANNOTATION, CONDITIONS_ANNOTATION, BEHAVIOR_ANNOTATION];

/** autoscaling.DefaultCPUUtilization: what an HPA without metrics targets. */
export const DEFAULT_CPU_UTILIZATION = 80;

export function defaultCPUMetric(): MetricSpec {
  return { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } };
}

function isCPUUtilization(m: MetricSpec): boolean {
  return m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target?.averageUtilization !== undefined;
}

function withoutRoundTrip(annotations: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!annotations) return undefined;
  const kept = Object.fromEntries(Object.entries(annotations).filter(([k]) => !ROUND_TRIP.includes(k)));
  return Object.keys(kept).length ? kept : undefined;
}

function parseAnnotation<T>(text: string | undefined): T | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T; // the annotation holds what hpaV2ToV1 (or Kubernetes) wrote there
  } catch {
    return undefined; // Kubernetes ignores an annotation it cannot decode
  }
}

/** Behavior in the annotation is Kubernetes' internal type: Go field names, nil pointers as null. */
function rulesToGo(r: HPAScalingRules | undefined): unknown {
  if (!r) return null;
  return {
    StabilizationWindowSeconds: r.stabilizationWindowSeconds ?? null,
    SelectPolicy: r.selectPolicy ?? null,
    Policies: r.policies ? r.policies.map((p) => ({ Type: p.type, Value: p.value, PeriodSeconds: p.periodSeconds })) : null,
  };
}

function rulesFromGo(r: unknown): HPAScalingRules | undefined {
  if (!r || typeof r !== 'object') return undefined;
  const g: Record<string, unknown> = { ...r };
  const out: HPAScalingRules = {};
  if (typeof g.StabilizationWindowSeconds === 'number') out.stabilizationWindowSeconds = g.StabilizationWindowSeconds;
  if (typeof g.SelectPolicy === 'string') out.selectPolicy = g.SelectPolicy;
  if (Array.isArray(g.Policies)) {
    out.policies = g.Policies.map((p: Record<string, unknown>) => ({
      type: String(p.Type ?? ''),
      value: Number(p.Value ?? 0),
      periodSeconds: Number(p.PeriodSeconds ?? 0),
    }));
  }
  return out;
}

/** A stored v2 object as autoscaling/v1 serves it. */
export function hpaV2ToV1(obj: ApiObject): ApiObject {
  const v2 = asKind<V2>(obj);
  const spec: Partial<NonNullable<V2['spec']>> = v2.spec ?? {};
  const status = v2.status;
  const annotations: Record<string, string> = { ...withoutRoundTrip(v2.metadata.annotations) };
  const metrics = spec.metrics ?? [];
  const cpu = metrics.find(isCPUUtilization);
  const other = metrics.filter((m) => !isCPUUtilization(m));
  if (other.length) annotations[METRIC_SPECS_ANNOTATION] = JSON.stringify(other.map(metricSpecToV1));
  const current = status?.currentMetrics ?? [];
  if (current.length) annotations[METRIC_STATUSES_ANNOTATION] = JSON.stringify(current.map(metricStatusToV1));
  if (spec.behavior)
    annotations[BEHAVIOR_ANNOTATION] = JSON.stringify({
      ScaleUp: rulesToGo(spec.behavior.scaleUp),
      ScaleDown: rulesToGo(spec.behavior.scaleDown),
    });
  if (status?.conditions?.length) annotations[CONDITIONS_ANNOTATION] = JSON.stringify(status.conditions);
  const metadata = { ...v2.metadata };
  if (Object.keys(annotations).length) metadata.annotations = annotations;
  else delete metadata.annotations;
  const v1Spec: Record<string, unknown> = {
    scaleTargetRef: spec.scaleTargetRef,
    minReplicas: spec.minReplicas,
    maxReplicas: spec.maxReplicas,
  };
  if (cpu) v1Spec.targetCPUUtilizationPercentage = cpu.resource?.target.averageUtilization;
  const out: ApiObject = { metadata, spec: withoutUndefined(v1Spec) };
  if (status) {
    const cpuNow = current.find((m) => m.type === 'Resource' && m.resource?.name === 'cpu')?.resource?.current.averageUtilization;
    out.status = withoutUndefined({
      observedGeneration: status.observedGeneration,
      lastScaleTime: status.lastScaleTime,
      currentReplicas: status.currentReplicas ?? 0,
      desiredReplicas: status.desiredReplicas ?? 0,
      currentCPUUtilizationPercentage: cpuNow,
    });
  }
  return out;
}

/** An autoscaling/v1 object in the stored v2 form. */
export function hpaV1ToV2(obj: ApiObject): ApiObject {
  const v1 = asKind<V1>(obj);
  const spec: Partial<NonNullable<V1['spec']>> = v1.spec ?? {};
  const annotations = v1.metadata.annotations ?? {};
  let metrics: MetricSpec[] = [];
  const other = parseAnnotation<V1MetricList>(annotations[METRIC_SPECS_ANNOTATION]);
  if (Array.isArray(other)) metrics = other.map(metricSpecFromV1);
  if (spec.targetCPUUtilizationPercentage !== undefined) {
    metrics.push({
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } },
    });
  }
  if (metrics.length === 0) metrics = [defaultCPUMetric()];
  let behavior: HorizontalPodAutoscalerBehavior | undefined;
  const goBehavior = parseAnnotation<Record<string, unknown>>(annotations[BEHAVIOR_ANNOTATION]);
  if (goBehavior && (goBehavior.ScaleUp || goBehavior.ScaleDown)) {
    behavior = withoutUndefined({ scaleUp: rulesFromGo(goBehavior.ScaleUp), scaleDown: rulesFromGo(goBehavior.ScaleDown) });
  }
  const metadata = { ...v1.metadata };
  const kept = withoutRoundTrip(metadata.annotations);
  if (kept) metadata.annotations = kept;
  else delete metadata.annotations;
  const out: ApiObject = {
    metadata,
    spec: withoutUndefined({
      scaleTargetRef: spec.scaleTargetRef,
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas,
      metrics,
      behavior,
    }),
  };
  if (v1.status) {
    const s = v1.status;
    let currentMetrics: MetricStatus[] | undefined;
    const fromAnnotation = parseAnnotation<V1MetricList>(annotations[METRIC_STATUSES_ANNOTATION]);
    if (Array.isArray(fromAnnotation)) currentMetrics = fromAnnotation.map(metricStatusFromV1);
    else if (s.currentCPUUtilizationPercentage !== undefined) {
      currentMetrics = [
        { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: s.currentCPUUtilizationPercentage } } },
      ];
    }
    const conditions = parseAnnotation<unknown[]>(annotations[CONDITIONS_ANNOTATION]);
    out.status = withoutUndefined({
      observedGeneration: s.observedGeneration,
      lastScaleTime: s.lastScaleTime,
      currentReplicas: s.currentReplicas || undefined,
      desiredReplicas: s.desiredReplicas ?? 0,
      currentMetrics: currentMetrics?.length ? currentMetrics : undefined,
      conditions: Array.isArray(conditions) && conditions.length ? conditions : undefined,
    });
  }
  return out;
}

/** autoscaling/v1 HorizontalPodAutoscalers are stored as autoscaling/v2 ones. */
export const hpaV1Conversion: StorageConversion = {
  storage: { kubernetesGroup: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler', resource: 'horizontalpodautoscalers' },
  toStorage: hpaV1ToV2,
  fromStorage: hpaV2ToV1,
};
