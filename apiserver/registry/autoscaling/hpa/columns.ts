/** The HorizontalPodAutoscaler table, as Kubernetes' printHorizontalPodAutoscaler fills it (from the v2 form). */
import { type ApiObject, asKind } from '../../../api/object.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import { canonicalQuantityText } from '../../../api/quantity.js';
import type { AutoscalingV2HorizontalPodAutoscaler as V2, MetricSpec, MetricStatus } from '../../../api/generated/types.js';
import { hpaV1ToV2 } from './conversion.js';

const MAX_SHOWN = 2;

function q(value: unknown): string {
  try {
    return canonicalQuantityText(value);
  } catch {
    return String(value);
  }
}

/** One metric as `current/target`, as formatHPAMetrics writes it. */
function formatMetric(spec: MetricSpec, status: MetricStatus | undefined): string {
  const unknown = '<unknown>';
  switch (spec.type) {
    case 'External':
    case 'Object': {
      const src = spec.type === 'External' ? spec.external : spec.object;
      const cur = spec.type === 'External' ? status?.external?.current : status?.object?.current;
      if (src?.target?.averageValue !== undefined) {
        return `${cur?.averageValue !== undefined ? q(cur.averageValue) : unknown}/${q(src.target.averageValue)} (avg)`;
      }
      const current = cur ? (cur.value !== undefined ? q(cur.value) : '0') : unknown;
      return `${current}/${q(src?.target?.value ?? '0')}`;
    }
    case 'Pods': {
      const cur = status?.pods?.current;
      return `${cur ? q(cur.averageValue ?? '0') : unknown}/${q(spec.pods?.target?.averageValue ?? '0')}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const target = spec.type === 'Resource' ? spec.resource?.target : spec.containerResource?.target;
      const cur = spec.type === 'Resource' ? status?.resource?.current : status?.containerResource?.current;
      if (target?.averageValue !== undefined) return `${cur ? q(cur.averageValue ?? '0') : unknown}/${q(target.averageValue)}`;
      const current = cur?.averageUtilization !== undefined ? `${cur.averageUtilization}%` : unknown;
      return `${current}/${target?.averageUtilization !== undefined ? `${target.averageUtilization}%` : '<auto>'}`;
    }
    default:
      return '<unknown type>';
  }
}

/** formatHPAMetrics: the first two metrics, then "+ N more...". */
export function formatHPAMetrics(specs: MetricSpec[], statuses: MetricStatus[]): string {
  if (specs.length === 0) return '<none>';
  const list = specs.map((s, i) => formatMetric(s, statuses[i]));
  const shown = list.slice(0, MAX_SHOWN).join(', ');
  return list.length > MAX_SHOWN ? `${shown} + ${list.length - MAX_SHOWN} more...` : shown;
}

function columns(v2Of: (obj: ApiObject) => V2): PrinterColumn[] {
  return [
    {
      name: 'Reference',
      description:
        'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.',
      cell: (o) => `${v2Of(o).spec?.scaleTargetRef?.kind ?? ''}/${v2Of(o).spec?.scaleTargetRef?.name ?? ''}`,
    },
    {
      name: 'Targets',
      description:
        'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond.',
      cell: (o) => formatHPAMetrics(v2Of(o).spec?.metrics ?? [], v2Of(o).status?.currentMetrics ?? []),
    },
    {
      name: 'MinPods',
      description:
        'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.',
      cell: (o) => (v2Of(o).spec?.minReplicas === undefined ? '<unset>' : String(v2Of(o).spec?.minReplicas)),
    },
    {
      name: 'MaxPods',
      description:
        'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.',
      cell: (o) => v2Of(o).spec?.maxReplicas ?? 0,
    },
    {
      name: 'Replicas',
      description: 'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.',
      cell: (o) => v2Of(o).status?.currentReplicas ?? 0,
    },
    AGE_COLUMN,
  ];
}

export const hpaV2Columns = columns((o) => asKind<V2>(o));
export const hpaV1Columns = columns((o) => asKind<V2>(hpaV1ToV2(o)));
