/**
 * autoscaling/v2 metric specs and statuses ↔ the autoscaling/v1 shapes Kubernetes keeps them in, as JSON in
 * the v1 object's round-trip annotations (pkg/apis/autoscaling/v1/conversion.go): the same facts under
 * v2beta1-era names (metricName, targetValue, targetAverageValue, currentAverageValue, …).
 */
import type { MetricSpec, MetricStatus, MetricTarget, MetricValueStatus } from '../../../api/generated/types.js';

type Json = Record<string, unknown>;

/** Drops undefined fields, as Go's omitempty does for nil pointers (the fields left are the object's, so it stays a T). */
function defined<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

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

export function metricSpecFromV1(m: Json): MetricSpec {
  const out: MetricSpec = { type: String(m.type ?? '') };
  const object = m.object as Json | undefined;
  if (object) {
    const target_ = object.target as Json | undefined;
    out.object = {
      describedObject: defined({ kind: target_?.kind ?? '', name: target_?.name ?? '', apiVersion: target_?.apiVersion }) as never,
      metric: defined({ name: object.metricName ?? '', selector: object.selector }) as never,
      target: target({
        type: object.averageValue === undefined ? 'Value' : 'AverageValue',
        value: (object.targetValue as string | undefined) ?? '0',
        averageValue: object.averageValue as string | undefined,
      }),
    };
  }
  const pods = m.pods as Json | undefined;
  if (pods) {
    out.pods = {
      metric: defined({ name: pods.metricName ?? '', selector: pods.selector }) as never,
      target: { type: 'AverageValue', averageValue: (pods.targetAverageValue as string | undefined) ?? '0' },
    };
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const r = m[key] as Json | undefined;
    if (!r) continue;
    const utilization = r.targetAverageUtilization as number | undefined;
    const t = target({
      type: utilization === undefined ? 'AverageValue' : 'Utilization',
      averageValue: r.targetAverageValue as string | undefined,
      averageUtilization: utilization,
    });
    if (key === 'resource') out.resource = { name: String(r.name ?? ''), target: t };
    else out.containerResource = { name: String(r.name ?? ''), container: String(r.container ?? ''), target: t };
  }
  const external = m.external as Json | undefined;
  if (external) {
    out.external = {
      metric: defined({ name: external.metricName ?? '', selector: external.metricSelector }) as never,
      target: target({
        type: external.targetValue === undefined ? 'AverageValue' : 'Value',
        value: external.targetValue as string | undefined,
        averageValue: external.targetAverageValue as string | undefined,
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

export function metricStatusFromV1(m: Json): MetricStatus {
  const out: MetricStatus = { type: String(m.type ?? '') };
  const object = m.object as Json | undefined;
  if (object) {
    const t = object.target as Json | undefined;
    out.object = {
      describedObject: defined({ kind: t?.kind ?? '', name: t?.name ?? '', apiVersion: t?.apiVersion }) as never,
      metric: defined({ name: object.metricName ?? '', selector: object.selector }) as never,
      current: defined({ value: object.currentValue ?? '0', averageValue: object.averageValue }) as MetricValueStatus,
    };
  }
  const pods = m.pods as Json | undefined;
  if (pods) {
    out.pods = {
      metric: defined({ name: pods.metricName ?? '', selector: pods.selector }) as never,
      current: { averageValue: (pods.currentAverageValue as string | undefined) ?? '0' },
    };
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const r = m[key] as Json | undefined;
    if (!r) continue;
    const current = defined({
      averageValue: r.currentAverageValue ?? '0',
      averageUtilization: r.currentAverageUtilization,
    }) as MetricValueStatus;
    if (key === 'resource') out.resource = { name: String(r.name ?? ''), current };
    else out.containerResource = { name: String(r.name ?? ''), container: String(r.container ?? ''), current };
  }
  const external = m.external as Json | undefined;
  if (external) {
    out.external = {
      metric: defined({ name: external.metricName ?? '', selector: external.metricSelector }) as never,
      current: defined({ value: external.currentValue ?? '0', averageValue: external.currentAverageValue }) as MetricValueStatus,
    };
  }
  return out;
}
