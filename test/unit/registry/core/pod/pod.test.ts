import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deepCopy } from '../../../../../apiserver/api/object.js';
import { isApiError } from '../../../../../apiserver/api/status.js';
import { podStrategy } from '../../../../../apiserver/registry/core/pod/strategy.js';
import { podStatusSubresource } from '../../../../../apiserver/registry/core/pod/status.js';
import { podQOSClass } from '../../../../../apiserver/registry/core/pod/qos.js';
import { imageTag } from '../../../../../apiserver/registry/shared/pod-spec/defaults.js';
import type { ResourceRequirements } from '../../../../../apiserver/api/generated/types.js';
import { errorMessage, type FieldError } from '../../../../../apiserver/api/field-errors.js';
import { create, createErrors, ctx, object, stored, updateErrors } from '../../helpers.js';

const pod = (spec: unknown, name = 'web') => object('v1', 'Pod', spec, name);
const basic = { containers: [{ name: 'app', image: 'nginx' }] };

test('pod defaults as Kubernetes 1.28 stores them', () => {
  const { obj, errors } = create(
    podStrategy,
    pod({
      serviceAccount: 'builder',
      hostNetwork: true,
      containers: [
        {
          name: 'app',
          image: 'nginx',
          ports: [{ containerPort: 8080 }],
          resources: { limits: { cpu: '0.5', memory: '128974848' } },
          env: [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
          livenessProbe: { httpGet: { port: 8080 } },
        },
      ],
      initContainers: [{ name: 'init', image: 'busybox:1.36' }],
      volumes: [
        { name: 'scratch' },
        { name: 'cfg', configMap: { name: 'cfg' } },
        { name: 'tok', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } },
      ],
    }),
  );
  assert.deepEqual(errors, []);
  assert.deepEqual(obj.spec, {
    serviceAccount: 'builder',
    serviceAccountName: 'builder',
    hostNetwork: true,
    containers: [
      {
        name: 'app',
        image: 'nginx',
        ports: [{ containerPort: 8080, protocol: 'TCP', hostPort: 8080 }],
        resources: { limits: { cpu: '500m', memory: '128974848' }, requests: { cpu: '500m', memory: '128974848' } },
        env: [{ name: 'NODE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } }],
        livenessProbe: {
          httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
          timeoutSeconds: 1,
          periodSeconds: 10,
          successThreshold: 1,
          failureThreshold: 3,
        },
        imagePullPolicy: 'Always',
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      },
    ],
    initContainers: [
      {
        name: 'init',
        image: 'busybox:1.36',
        imagePullPolicy: 'IfNotPresent',
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      },
    ],
    volumes: [
      { name: 'scratch', emptyDir: {} },
      { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } },
      { name: 'tok', projected: { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 3600 } }], defaultMode: 420 } },
    ],
    dnsPolicy: 'ClusterFirst',
    restartPolicy: 'Always',
    securityContext: {},
    terminationGracePeriodSeconds: 30,
    schedulerName: 'default-scheduler',
    enableServiceLinks: true,
  });
  assert.deepEqual(obj.status, { phase: 'Pending', qosClass: 'Burstable' });
});

test('a malformed quantity is a 400, as when Kubernetes decodes it', () => {
  const obj = pod({ containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: 'lots' } } }] });
  assert.throws(
    () => podStrategy.applyDefaults!(obj, ctx),
    (err) =>
      isApiError(err, 'BadRequest') &&
      err.status.message ===
        `Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
  );
});

test('image pull policy follows the tag', () => {
  assert.equal(imageTag('nginx'), 'latest');
  assert.equal(imageTag('nginx:latest'), 'latest');
  assert.equal(imageTag('registry.local:5000/team/app'), 'latest');
  assert.equal(imageTag('nginx:1.25'), '1.25');
  assert.equal(imageTag('nginx@sha256:abc'), '');
  assert.equal(imageTag('Nginx'), '');
  assert.equal(imageTag(''), '');
});

test('QoS classes', () => {
  const container = (resources: ResourceRequirements) => ({ name: 'c', image: 'i', resources });
  assert.equal(podQOSClass({ containers: [container({})] }), 'BestEffort');
  assert.equal(
    podQOSClass({ containers: [container({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1000m', memory: '1Gi' } })] }),
    'Guaranteed',
  );
  assert.equal(podQOSClass({ containers: [container({ requests: { cpu: '1' } })] }), 'Burstable');
  assert.equal(
    podQOSClass({ containers: [container({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } })] }),
    'Burstable',
  );
});

test('scheduling gates: a gated condition on create, no node name', () => {
  const { obj } = create(podStrategy, pod({ ...basic, schedulingGates: [{ name: 'example.com/wait' }] }));
  assert.deepEqual(obj.status, {
    phase: 'Pending',
    qosClass: 'BestEffort',
    conditions: [
      {
        type: 'PodScheduled',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: null,
        reason: 'SchedulingGated',
        message: 'Scheduling is blocked due to non-empty scheduling gates',
      },
    ],
  });
  assert.deepEqual(createErrors(podStrategy, pod({ ...basic, nodeName: 'n1', schedulingGates: [{ name: 'g' }] })), [
    'spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared',
  ]);
  assert.deepEqual(createErrors(podStrategy, pod({ ...basic, ephemeralContainers: [{ name: 'dbg', image: 'busybox' }] })), [
    'spec.ephemeralContainers: Forbidden: cannot be set on create',
  ]);
});

test('create-only rules apply on create and never on update, even an update that sends no resourceVersion', () => {
  const old = stored(podStrategy, pod({ ...basic, ephemeralContainers: [] }));
  const next = deepCopy(old);
  (next.spec as any).ephemeralContainers = [{ name: 'dbg', image: 'busybox' }];
  delete next.metadata.resourceVersion;
  const createOnly = (errors: FieldError[]) => errors.map(errorMessage).filter((m) => m.includes('cannot be set on create'));
  assert.deepEqual(createOnly(podStrategy.validateUpdate!(next, old, ctx)), []);
  assert.deepEqual(createOnly(podStrategy.validate!(next, ctx)), ['spec.ephemeralContainers: Forbidden: cannot be set on create']);
});

test('pod-only rules: image whitespace, tokens need a service account, alpha fields dropped', () => {
  assert.deepEqual(
    createErrors(
      podStrategy,
      pod({
        containers: [{ name: 'app', image: ' nginx ' }],
        volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }],
      }),
    ),
    [
      'spec.volumes[0].projected.sources[0].serviceAccountToken: Forbidden: must not be specified when serviceAccountName is not set',
      'spec.containers[0].image: Invalid value: " nginx ": must not have leading or trailing whitespace',
    ],
  );
  const { obj } = create(
    podStrategy,
    pod({
      hostUsers: false,
      containers: [{ name: 'app', image: 'nginx', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] }],
      initContainers: [{ name: 'side', image: 'x', restartPolicy: 'Always' }],
    }),
  );
  const spec = obj.spec as Record<string, any>;
  assert.equal(spec.hostUsers, undefined);
  assert.equal(spec.containers[0].resizePolicy, undefined);
  assert.equal(spec.initContainers[0].restartPolicy, undefined);
});

test('pod updates may change images, a shorter deadline and added tolerations only', () => {
  const old = stored(podStrategy, pod({ ...basic, activeDeadlineSeconds: 100, tolerations: [{ key: 'a', operator: 'Exists' }] }));
  const next = deepCopy(old);
  (next.spec as any).containers[0].image = 'nginx:1.26';
  (next.spec as any).activeDeadlineSeconds = 50;
  (next.spec as any).tolerations.push({ key: 'b', operator: 'Exists' });
  assert.deepEqual(updateErrors(podStrategy, next, old), []);

  const longer = deepCopy(old);
  (longer.spec as any).activeDeadlineSeconds = 200;
  assert.deepEqual(updateErrors(podStrategy, longer, old), [
    'spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value',
  ]);

  const removed = deepCopy(old);
  (removed.spec as any).tolerations = [];
  assert.deepEqual(updateErrors(podStrategy, removed, old), [
    'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
  ]);

  const added = deepCopy(old);
  (added.spec as any).containers.push({ name: 'two', image: 'x' });
  assert.deepEqual(updateErrors(podStrategy, added, old), ['spec.containers: Forbidden: pod updates may not add or remove containers']);

  const other = deepCopy(old);
  (other.spec as any).restartPolicy = 'Never';
  const errs = updateErrors(podStrategy, other, old);
  assert.equal(errs.length, 1);
  assert.equal(
    errs[0].split('\n')[0],
    'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
  );
  assert.match(errs[0], /\n- restartPolicy: "Always"\n\+ restartPolicy: "Never"$/);
});

test('gated pods may gain node selector entries and lose gates', () => {
  const old = stored(podStrategy, pod({ ...basic, nodeSelector: { disk: 'ssd' }, schedulingGates: [{ name: 'a' }, { name: 'b' }] }));
  const next = deepCopy(old);
  (next.spec as any).nodeSelector.zone = 'z1';
  (next.spec as any).schedulingGates = [{ name: 'a' }];
  assert.deepEqual(updateErrors(podStrategy, next, old), []);
  const changed = deepCopy(old);
  (changed.spec as any).nodeSelector = { disk: 'hdd' };
  (changed.spec as any).schedulingGates.push({ name: 'c' });
  assert.deepEqual(updateErrors(podStrategy, changed, old), [
    "spec.schedulingGates[2].name: Forbidden: only deletion is allowed, but found new scheduling gate 'c'",
    'spec.nodeSelector: Invalid value: {"disk":"hdd"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)',
  ]);
});

test('pods/status keeps the QoS class and checks conditions and IPs', () => {
  const old = stored(podStrategy, pod(basic));
  const update = {
    ...deepCopy(old),
    status: {
      phase: 'Running',
      conditions: [
        { type: 'example.com/ok', status: 'True' },
        { type: 'bad type', status: 'True' },
      ],
      podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }],
    },
  };
  const next = podStatusSubresource.prepareForUpdate(update, old, ctx);
  assert.equal((next.status as any).qosClass, 'BestEffort');
  assert.deepEqual(podStatusSubresource.validateUpdate!(next, old, ctx).map(errorMessage), [
    `metadata.conditions[1].Type: Invalid value: "bad type": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    'status.podIPs: Invalid value: [{"ip":"10.0.0.1"},{"ip":"10.0.0.2"}]: may specify no more than one IP for each IP family',
  ]);
  const legacyIP = podStatusSubresource.prepareForUpdate({ ...deepCopy(old), status: { podIP: '10.0.0.9' } }, old, ctx);
  assert.deepEqual(legacyIP.status, { podIP: '10.0.0.9', podIPs: [{ ip: '10.0.0.9' }], qosClass: 'BestEffort' });
  const qos = { ...deepCopy(old), status: { qosClass: 'Guaranteed' } };
  assert.deepEqual(podStatusSubresource.validateUpdate!(podStatusSubresource.prepareForUpdate(qos, old, ctx), old, ctx).map(errorMessage), [
    'status.qosClass: Invalid value: "Guaranteed": field is immutable',
  ]);
});
