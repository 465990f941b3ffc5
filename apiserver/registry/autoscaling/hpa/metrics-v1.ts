/**
 * autoscaling/v2 metric specs and statuses ↔ the autoscaling/v1 shapes Kubernetes keeps them in, as JSON in
 * the v1 object's round-trip annotations (pkg/apis/autoscaling/v1/conversion.go): the same facts under
 * v2beta1-era names (metricName, targetValue, targetAverageValue, currentAverageValue, …).
 */
import type { LabelSelector, MetricSpec, MetricStatus, MetricTarget, MetricValueStatus } from '../../../api/generated/types.js';
import { withoutUndefined as defined } from '../../../api/without-undefined.js';

type Json = Record<string, unknown>;

/** The object a v1 metric names (autoscaling/v1 CrossVersionObjectReference). */
interface V1ObjectReference {
  kind?: string;
  name?: string;
  apiVersion?: string;
}

/** A metric source or status in the annotation's v1 shape (Kubernetes' v1 MetricSpec and MetricStatus). */
interface V1Metric {
  type?: string;
  object?: {
    target?: V1ObjectReference;
    metricName?: string;
    selector?: LabelSelector;
    targetValue?: string;
    currentValue?: string;
    averageValue?: string;
  };
  pods?: { metricName?: string; selector?: LabelSelector; targetAverageValue?: string; currentAverageValue?: string };
  resource?: V1ResourceMetric;
  containerResource?: V1ResourceMetric;
  external?: {
    metricName?: string;
    metricSelector?: LabelSelector;
    targetValue?: string;
    targetAverageValue?: string;
    currentValue?: string;
    currentAverageValue?: string;
  };
}

interface V1ResourceMetric {
  name?: string;
  container?: string;
  targetAverageUtilization?: number;
  targetAverageValue?: string;
  currentAverageUtilization?: number;
  currentAverageValue?: string;
}

/** The annotations' JSON as written (by us, or by Kubernetes): a list of v1 metrics. */
export type V1MetricList = V1Metric[];

const ref = (r: { kind?: string; name?: string; apiVersion?: string } | undefined): Json =>
  defined({ kind: r?.kind ?? '', name: r?.name ?? '', apiVersion: r?.apiVersion });

export function metricSpecToV1(m: MetricSpec): Json {
  const out: Json = { type: m.type };
  if (m.object) {
    const t = m.object.target;
    out.object = defined({
      target: ref(m.object.describedObject),
      metricName: m.object.metric?.name ?? '',
      targetValue: t?.value ?? '0',
      selector: m.object.metric?.selector,
      averageValue: t?.averageValue,
    });
  }
  if (m.pods) {
    out.pods = defined({
      metricName: m.pods.metric?.name ?? '',
      targetAverageValue: m.pods.target?.averageValue ?? '0',
      selector: m.pods.metric?.selector,
    });
  }
  if (m.resource) {
    const t = m.resource.target;
    out.resource = defined({ name: m.resource.name, targetAverageUtilization: t?.averageUtilization, targetAverageValue: t?.averageValue });
  }
  if (m.containerResource) {
    const t = m.containerResource.target;
    out.containerResource = defined({
      name: m.containerResource.name,
      targetAverageUtilization: t?.averageUtilization,
      targetAverageValue: t?.averageValue,
      container: m.containerResource.container,
    });
  }
  if (m.external) {
    const t = m.external.target;
    out.external = defined({
      metricName: m.external.metric?.name ?? '',
      metricSelector: m.external.metric?.selector,
      targetValue: t?.value,
      targetAverageValue: t?.averageValue,
    });
  }
  return out;
}

const target = (t: MetricTarget): MetricTarget => defined(t);

export function metricSpecFromV1(m: V1Metric): MetricSpec {
  const out: MetricSpec = { type: String(m.type ?? '') };
  const object = m.object;
  if (object) {
    const target_ = object.target;
    out.object = {
      describedObject: defined({ kind: target_?.kind ?? '', name: target_?.name ?? '', apiVersion: target_?.apiVersion }),
      metric: defined({ name: object.metricName ?? '', selector: object.selector }),
      target: target({
        type: object.averageValue === undefined ? 'Value' : 'AverageValue',
        value: object.targetValue ?? '0',
        averageValue: object.averageValue,
      }),
    };
  }
  const pods = m.pods;
  if (pods) {
    out.pods = {
      metric: defined({ name: pods.metricName ?? '', selector: pods.selector }),
      target: { type: 'AverageValue', averageValue: pods.targetAverageValue ?? '0' },
    };
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const r = m[key];
    if (!r) continue;
    const utilization = r.targetAverageUtilization;
    const t = target({
      type: utilization === undefined ? 'AverageValue' : 'Utilization',
      averageValue: r.targetAverageValue,
      averageUtilization: utilization,
    });
    if (key === 'resource') out.resource = { name: String(r.name ?? ''), target: t };
    else out.containerResource = { name: String(r.name ?? ''), container: String(r.container ?? ''), target: t };
  }
  const external = m.external;
  if (external) {
    out.external = {
      metric: defined({ name: external.metricName ?? '', selector: external.metricSelector }),
      target: target({
        type: external.targetValue === undefined ? 'AverageValue' : 'Value',
        value: external.targetValue,
        averageValue: external.targetAverageValue,
      }),
    };
  }
  return out;
}

export function metricStatusToV1(m: MetricStatus): Json {
  const out: Json = { type: m.type };
  const cur = (c: MetricValueStatus | undefined) => c ?? {};
  if (m.object) {
    const c = cur(m.object.current);
    out.object = defined({
      target: ref(m.object.describedObject),
      metricName: m.object.metric?.name ?? '',
      currentValue: c.value ?? '0',
      selector: m.object.metric?.selector,
      averageValue: c.averageValue,
    });
  }
  if (m.pods) {
    out.pods = defined({
      metricName: m.pods.metric?.name ?? '',
      currentAverageValue: cur(m.pods.current).averageValue ?? '0',
      selector: m.pods.metric?.selector,
    });
  }
  if (m.resource) {
    const c = cur(m.resource.current);
    out.resource = defined({
      name: m.resource.name,
      currentAverageUtilization: c.averageUtilization,
      currentAverageValue: c.averageValue ?? '0',
    });
  }
  if (m.containerResource) {
    const c = cur(m.containerResource.current);
    out.containerResource = defined({
      name: m.containerResource.name,
      currentAverageUtilization: c.averageUtilization,
      currentAverageValue: c.averageValue ?? '0',
      container: m.containerResource.container,
    });
  }
  if (m.external) {
    const c = cur(m.external.current);
    out.external = defined({
      metricName: m.external.metric?.name ?? '',
      metricSelector: m.external.metric?.selector,
      currentValue: c.value ?? '0',
      currentAverageValue: c.averageValue,
    });
  }
  return out;
}

export function metricStatusFromV1(m: V1Metric): MetricStatus {
  const out: MetricStatus = { type: String(m.type ?? '') };
  const object = m.object;
  if (object) {
    const t = object.target;
    out.object = {
      describedObject: defined({ kind: t?.kind ?? '', name: t?.name ?? '', apiVersion: t?.apiVersion }),
      metric: defined({ name: object.metricName ?? '', selector: object.selector }),
      current: defined<MetricValueStatus>({ value: object.currentValue ?? '0', averageValue: object.averageValue }),
    };
  }
  const pods = m.pods;
  if (pods) {
    out.pods = {
      metric: defined({ name: pods.metricName ?? '', selector: pods.selector }),
      current: { averageValue: pods.currentAverageValue ?? '0' },
    };
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const r = m[key];
    if (!r) continue;
    const current = defined<MetricValueStatus>({
      averageValue: r.currentAverageValue ?? '0',
      averageUtilization: r.currentAverageUtilization,
    });
    if (key === 'resource') out.resource = { name: String(r.name ?? ''), current };
    else out.containerResource = { name: String(r.name ?? ''), container: String(r.container ?? ''), current };
  }
  const external = m.external;
  if (external) {
    out.external = {
      metric: defined({ name: external.metricName ?? '', selector: external.metricSelector }),
      current: defined<MetricValueStatus>({ value: external.currentValue ?? '0', averageValue: external.currentAverageValue }),
    };
  }
  return out;
}
