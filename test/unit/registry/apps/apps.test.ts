import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deepCopy } from '../../../../apiserver/api/object.js';
import { errorMessage } from '../../../../apiserver/api/field-errors.js';
import { deploymentStrategy } from '../../../../apiserver/registry/apps/deployment/strategy.js';
import { replicaSetStrategy } from '../../../../apiserver/registry/apps/replicaset/strategy.js';
import { statefulSetStrategy } from '../../../../apiserver/registry/apps/statefulset/strategy.js';
import { TEMPLATE_GENERATION_ANNOTATION, daemonSetStrategy } from '../../../../apiserver/registry/apps/daemonset/strategy.js';
import { deploymentStatusRules, statusCountersSubresource } from '../../../../apiserver/registry/shared/workload/status-counters.js';
import { create, createErrors, ctx, object, stored, updateErrors } from '../helpers.js';

const template = (labels: Record<string, string> = { app: 'web' }) => ({
  metadata: { labels },
  spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] },
});
const workload = (extra: Record<string, unknown> = {}) => ({ selector: { matchLabels: { app: 'web' } }, template: template(), ...extra });
const apps = (kind: string, spec: unknown, name = 'web') => object('apps/v1', kind, spec, name);

/** The pod spec defaults every workload template gets. */
const defaultedTemplate = {
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [
      {
        name: 'app',
        image: 'nginx:1.25',
        imagePullPolicy: 'IfNotPresent',
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      },
    ],
    dnsPolicy: 'ClusterFirst',
    restartPolicy: 'Always',
    securityContext: {},
    terminationGracePeriodSeconds: 30,
    schedulerName: 'default-scheduler',
  },
};

test('deployment defaults', () => {
  const { obj, errors } = create(deploymentStrategy, apps('Deployment', workload()));
  assert.deepEqual(errors, []);
  assert.deepEqual(obj.spec, {
    replicas: 1,
    selector: { matchLabels: { app: 'web' } },
    template: defaultedTemplate,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
    revisionHistoryLimit: 10,
    progressDeadlineSeconds: 600,
  });
  assert.deepEqual(obj.status, {});
  const recreate = create(deploymentStrategy, apps('Deployment', workload({ strategy: { type: 'Recreate' } }))).obj;
  assert.deepEqual((recreate.spec as any).strategy, { type: 'Recreate' });
});

test('deployment validation', () => {
  assert.deepEqual(createErrors(deploymentStrategy, apps('Deployment', { template: template() })), [
    'spec.selector: Required value',
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
  ]);
  assert.deepEqual(createErrors(deploymentStrategy, apps('Deployment', workload({ selector: { matchLabels: { app: 'db' } } }))), [
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
  ]);
  assert.deepEqual(createErrors(deploymentStrategy, apps('Deployment', workload({ selector: {} }))), [
    'spec.selector: Invalid value: {}: empty selector is invalid for deployment',
  ]);
  assert.deepEqual(
    createErrors(
      deploymentStrategy,
      apps(
        'Deployment',
        workload({ replicas: -1, minReadySeconds: 700, strategy: { rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' } } }),
      ),
    ),
    [
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
      'spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds',
    ],
  );
  assert.deepEqual(createErrors(deploymentStrategy, apps('Deployment', workload({ strategy: { type: 'Recreate', rollingUpdate: {} } }))), [
    "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
  ]);
  assert.deepEqual(
    createErrors(
      deploymentStrategy,
      apps('Deployment', workload({ strategy: { rollingUpdate: { maxUnavailable: '120%', maxSurge: 'lots' } } })),
    ),
    [
      "spec.strategy.rollingUpdate.maxSurge: Invalid value: \"lots\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%',
    ],
  );
  const job = workload();
  job.template.spec = { ...job.template.spec, restartPolicy: 'Never', activeDeadlineSeconds: 10 } as typeof job.template.spec;
  assert.deepEqual(createErrors(deploymentStrategy, apps('Deployment', job)), [
    'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
  ]);
});

test('apps/v1 selectors are immutable', () => {
  const old = stored(deploymentStrategy, apps('Deployment', workload()));
  const next = deepCopy(old);
  (next.spec as any).selector = { matchLabels: { app: 'web', tier: 'front' } };
  (next.spec as any).template.metadata.labels.tier = 'front';
  assert.deepEqual(updateErrors(deploymentStrategy, next, old), [
    'spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"front"}}: field is immutable',
  ]);
  const scaled = deepCopy(old);
  (scaled.spec as any).replicas = 5;
  assert.deepEqual(updateErrors(deploymentStrategy, scaled, old), []);
  const rs = stored(replicaSetStrategy, apps('ReplicaSet', workload()));
  const rsNext = deepCopy(rs);
  (rsNext.spec as any).selector.matchLabels = { app: 'other' };
  assert.ok(
    updateErrors(replicaSetStrategy, rsNext, rs).includes(
      'spec.selector: Invalid value: {"matchLabels":{"app":"other"}}: field is immutable',
    ),
  );
});

test('replica set defaults and validation', () => {
  const { obj, errors } = create(replicaSetStrategy, apps('ReplicaSet', workload()));
  assert.deepEqual(errors, []);
  assert.equal((obj.spec as any).replicas, 1);
  assert.deepEqual(obj.status, { replicas: 0 });
  assert.deepEqual(
    createErrors(replicaSetStrategy, apps('ReplicaSet', workload({ selector: { matchExpressions: [] }, minReadySeconds: -5 }))),
    [
      'spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0',
      'spec.selector: Invalid value: {"matchExpressions":[]}: empty selector is invalid for deployment',
    ],
  );
});

test('statefulset defaults', () => {
  const claim = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
  const spec = workload({ serviceName: 'web', volumeClaimTemplates: [claim] });
  (spec.template.spec.containers[0] as any).volumeMounts = [{ name: 'data', mountPath: '/data' }];
  const { obj, errors } = create(statefulSetStrategy, apps('StatefulSet', spec));
  assert.deepEqual(errors, [], 'mounts may use claim templates');
  const s = obj.spec as any;
  assert.equal(s.podManagementPolicy, 'OrderedReady');
  assert.deepEqual(s.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
  assert.deepEqual(s.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
  assert.equal(s.replicas, 1);
  assert.equal(s.revisionHistoryLimit, 10);
  assert.deepEqual(s.volumeClaimTemplates, [
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    },
  ]);
  assert.deepEqual(obj.status, { replicas: 0, availableReplicas: 0 });
});

test('statefulset validation', () => {
  assert.deepEqual(
    createErrors(
      statefulSetStrategy,
      apps(
        'StatefulSet',
        workload({
          podManagementPolicy: 'Random',
          updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } },
          persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep' },
          ordinals: { start: -1 },
        }),
      ),
    ),
    [
      "spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'",
      'spec.updateStrategy.rollingUpdate: Invalid value: {"partition":1}: only allowed for updateStrategy \'RollingUpdate\'',
      'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"',
      'spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0',
    ],
  );
  assert.deepEqual(createErrors(statefulSetStrategy, apps('StatefulSet', workload({ selector: {} }))), [
    'spec.selector: Invalid value: {}: empty selector is invalid for statefulset',
  ]);
});

test('statefulset spec is immutable but for replicas, template, updateStrategy and a few more', () => {
  const old = stored(statefulSetStrategy, apps('StatefulSet', workload({ serviceName: 'web' })));
  const ok = deepCopy(old);
  Object.assign(ok.spec as object, { replicas: 3, minReadySeconds: 5, updateStrategy: { type: 'OnDelete' }, ordinals: { start: 2 } });
  (ok.spec as any).template.spec.containers[0].image = 'nginx:1.26';
  assert.deepEqual(updateErrors(statefulSetStrategy, ok, old), []);
  const bad = deepCopy(old);
  (bad.spec as any).serviceName = 'other';
  assert.deepEqual(updateErrors(statefulSetStrategy, bad, old), [
    "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
  ]);
});

test('daemonset defaults, validation and template generation', () => {
  const { obj, errors } = create(daemonSetStrategy, apps('DaemonSet', workload()));
  assert.deepEqual(errors, []);
  assert.deepEqual((obj.spec as any).updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
  assert.equal((obj.spec as any).revisionHistoryLimit, 10);
  assert.equal(obj.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION], '1');
  assert.deepEqual(obj.status, { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });

  assert.deepEqual(
    createErrors(daemonSetStrategy, apps('DaemonSet', workload({ updateStrategy: { rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } } }))),
    ['spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero'],
  );
  assert.deepEqual(createErrors(daemonSetStrategy, apps('DaemonSet', workload({ updateStrategy: { type: 'Sometimes' } }))), [
    'spec.updateStrategy: Unsupported value: {"type":"Sometimes"}: supported values: "RollingUpdate", "OnDelete"',
  ]);

  const old = deepCopy(obj);
  old.metadata.resourceVersion = '1';
  const relabeled = deepCopy(old);
  relabeled.metadata.labels = { a: 'b' };
  updateErrors(daemonSetStrategy, relabeled, old);
  assert.equal(relabeled.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION], '1');
  const changed = deepCopy(old);
  (changed.spec as any).template.spec.containers[0].image = 'nginx:1.26';
  assert.deepEqual(updateErrors(daemonSetStrategy, changed, old), []);
  assert.equal(changed.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION], '2');
});

test('workload status: counters not negative, not above replicas, collisions never decremented', () => {
  const status = statusCountersSubresource(deploymentStatusRules);
  const old = { ...apps('Deployment', {}), status: { replicas: 3, collisionCount: 2 } };
  const next = status.prepareForUpdate(
    {
      ...apps('Deployment', {}),
      status: { replicas: 1, readyReplicas: 2, availableReplicas: 3, unavailableReplicas: -1, collisionCount: 1 },
    },
    old,
    ctx,
  );
  assert.deepEqual(status.validateUpdate!(next, old, ctx).map(errorMessage), [
    'status.unavailableReplicas: Invalid value: -1: must be greater than or equal to 0',
    'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
    'status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas',
    'status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas',
    'status.collisionCount: Invalid value: 1: cannot be decremented',
  ]);
});
