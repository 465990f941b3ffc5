import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { hpaV1ToV2, hpaV2ToV1 } from '../../../../apiserver/registry/autoscaling/hpa/conversion.js';
import { formatHPAMetrics } from '../../../../apiserver/registry/autoscaling/hpa/columns.js';

const v2 = {
  metadata: { name: 'x', namespace: 'ns', annotations: { keep: 'me' } },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x' },
    minReplicas: 1,
    maxReplicas: 4,
    metrics: [
      {
        type: 'Object',
        object: { describedObject: { kind: 'Service', name: 's' }, metric: { name: 'rps' }, target: { type: 'Value', value: '10' } },
      },
      {
        type: 'External',
        external: {
          metric: { name: 'queue', selector: { matchLabels: { q: 'a' } } },
          target: { type: 'AverageValue', averageValue: '30' },
        },
      },
      {
        type: 'ContainerResource',
        containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 70 } },
      },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
    ],
    behavior: {
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] },
      scaleDown: { selectPolicy: 'Min', policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] },
    },
  },
  status: {
    currentReplicas: 2,
    desiredReplicas: 3,
    currentMetrics: [
      { type: 'Object', object: { describedObject: { kind: 'Service', name: 's' }, metric: { name: 'rps' }, current: { value: '12' } } },
      { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 40, averageValue: '200m' } } },
    ],
    conditions: [
      { type: 'AbleToScale', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'ReadyForNewScale', message: 'ok' },
    ],
  },
} as unknown as ApiObject;

test('v2 → v1 → v2 is lossless; v1 keeps the rest in Kubernetes round-trip annotations', () => {
  const v1 = hpaV2ToV1(structuredClone(v2));
  assert.equal((v1.spec as { targetCPUUtilizationPercentage: number }).targetCPUUtilizationPercentage, 50);
  assert.deepEqual(v1.status, { currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 40 });
  const annotations = v1.metadata.annotations ?? {};
  assert.deepEqual(Object.keys(annotations).sort(), [
    'autoscaling.alpha.kubernetes.io/behavior',
    'autoscaling.alpha.kubernetes.io/conditions',
    'autoscaling.alpha.kubernetes.io/current-metrics',
    'autoscaling.alpha.kubernetes.io/metrics',
    'keep',
  ]);
  assert.deepEqual(JSON.parse(annotations['autoscaling.alpha.kubernetes.io/behavior']).ScaleDown, {
    StabilizationWindowSeconds: null,
    SelectPolicy: 'Min',
    Policies: [{ Type: 'Percent', Value: 10, PeriodSeconds: 60 }],
  });
  const back = hpaV1ToV2(v1);
  // The CPU utilization target comes back last, after the metrics v1 keeps in the annotation (as in Kubernetes).
  const spec = v2.spec as { metrics: unknown[] };
  assert.deepEqual(back, { ...v2, spec: { ...spec, metrics: [...spec.metrics.slice(0, 3), spec.metrics[3]] } });
});

test('a v1 object without a CPU target gets the default 80% metric', () => {
  const v1 = {
    metadata: { name: 'x' },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' }, maxReplicas: 2 },
  } as unknown as ApiObject;
  assert.deepEqual((hpaV1ToV2(v1).spec as { metrics: unknown }).metrics, [
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
  ]);
});

test('formatHPAMetrics writes targets as kubectl prints them', () => {
  const { metrics } = v2.spec as { metrics: never[] };
  const { currentMetrics } = v2.status as { currentMetrics: never[] };
  assert.equal(formatHPAMetrics(metrics, currentMetrics), '12/10, <unknown>/30 (avg) + 2 more...');
  assert.equal(formatHPAMetrics(metrics.slice(3), []), '<unknown>/50%');
  assert.equal(formatHPAMetrics([], []), '<none>');
});
