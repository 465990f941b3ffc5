import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage, fieldPath } from '../../../../../apiserver/api/field-errors.js';
import { validatePodSpec, validatePodTemplateSpec } from '../../../../../apiserver/registry/shared/pod-spec/pod-spec.js';
import { setPodSpecDefaults } from '../../../../../apiserver/registry/shared/pod-spec/defaults.js';
import type { Container, ContainerPort, PodSpec, Sysctl } from '../../../../../apiserver/api/generated/types.js';
import { LABEL_ERR, ctx, object } from '../../helpers.js';

/** A defaulted spec with one valid container, changed by `change`. */
function spec(change: (s: PodSpec) => void = () => {}): PodSpec {
  const s: PodSpec = { containers: [{ name: 'app', image: 'nginx:1.25' }] };
  change(s);
  setPodSpecDefaults(object('v1', 'Pod', {}), s);
  return s;
}

function messages(s: PodSpec, isPod = false): string[] {
  return validatePodSpec(s, fieldPath('spec'), { domain: ctx.domain, isPod }).map(errorMessage);
}

const app = (s: PodSpec): Container => s.containers![0];

test('a defaulted minimal spec is valid', () => {
  assert.deepEqual(messages(spec()), []);
});

test('containers: at least one, DNS-label names unique across all kinds, an image', () => {
  assert.deepEqual(messages(spec((s) => (s.containers = []))), ['spec.containers: Required value']);
  assert.deepEqual(
    messages(
      spec((s) => {
        s.containers!.push({ name: 'app', image: 'x' }, { name: 'Bad', image: '' });
        s.initContainers = [{ name: 'app', image: 'i' }];
      }),
    ),
    [
      'spec.containers[1].name: Duplicate value: "app"',
      `spec.containers[2].name: Invalid value: "Bad": ${LABEL_ERR}`,
      'spec.containers[2].image: Required value',
      'spec.initContainers[0].name: Duplicate value: "app"',
    ],
  );
  assert.deepEqual(messages(spec((s) => (s.ephemeralContainers = [{ name: 'app', image: 'x', ports: [{ containerPort: 1 }] }]))), [
    'spec.ephemeralContainers[0].name: Duplicate value: "app"',
    'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
  ]);
});

test('ports: containerPort 1..65535, IANA service names unique, protocols', () => {
  assert.deepEqual(
    messages(
      spec((s) => {
        app(s).ports = [
          { containerPort: 80, name: 'http' },
          { containerPort: 70000, name: 'http' },
          { name: '8080' } as ContainerPort,
          { containerPort: 53, protocol: 'ICMP', hostPort: 99999 },
        ];
      }),
    ),
    [
      'spec.containers[0].ports[1].name: Duplicate value: "http"',
      'spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[2].name: Invalid value: "8080": must contain at least one letter (a-z)',
      'spec.containers[0].ports[2].containerPort: Required value',
      'spec.containers[0].ports[3].hostPort: Invalid value: 99999: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[3].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    ],
  );
  assert.deepEqual(
    messages(
      spec(
        (s) =>
          (s.containers = [
            { name: 'a', image: 'x', ports: [{ containerPort: 1, hostPort: 8 }] },
            { name: 'b', image: 'x', ports: [{ containerPort: 2, hostPort: 8 }] },
          ]),
      ),
    ),
    ['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8"'],
  );
});

test('env: variable names, one value source', () => {
  assert.deepEqual(
    messages(
      spec((s) => {
        app(s).env = [
          { name: '1ABC', value: 'x' },
          { name: '' },
          { name: 'A', valueFrom: {} },
          { name: 'B', value: 'v', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
          { name: 'C', valueFrom: { fieldRef: { fieldPath: 'metadata.labels' } } },
          { name: 'D', valueFrom: { configMapKeyRef: { name: 'c', key: 'bad key' } } },
        ];
      }),
    ),
    [
      `spec.containers[0].env[0].name: Invalid value: "1ABC": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')`,
      'spec.containers[0].env[1].name: Required value',
      'spec.containers[0].env[2].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      'spec.containers[0].env[3].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
      'spec.containers[0].env[4].valueFrom.fieldRef.fieldPath: Unsupported value: "metadata.labels": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.podIP", "status.podIPs"',
      `spec.containers[0].env[5].valueFrom.configMapKeyRef.key: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ],
  );
  assert.deepEqual(messages(spec((s) => (app(s).envFrom = [{ prefix: '1x' }]))), [
    `spec.containers[0].envFrom[0].prefix: Invalid value: "1x": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')`,
    'spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
  ]);
});

test('volume mounts reference volumes, with unique paths', () => {
  assert.deepEqual(
    messages(
      spec((s) => {
        s.volumes = [{ name: 'data', emptyDir: {} }];
        app(s).volumeMounts = [
          { name: 'data', mountPath: '/data', subPath: '../up' },
          { name: 'missing', mountPath: '/data' },
          { name: 'data', mountPath: '' },
          { name: 'data', mountPath: '/b', mountPropagation: 'Bidirectional' },
        ];
      }),
    ),
    [
      `spec.containers[0].volumeMounts.subPath: Invalid value: "../up": must not contain '..'`,
      'spec.containers[0].volumeMounts[1].name: Not found: "missing"',
      'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique',
      'spec.containers[0].volumeMounts[2].mountPath: Required value',
      'spec.containers[0].volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers',
    ],
  );
  assert.deepEqual(
    messages(
      spec((s) => {
        s.volumes = [{ name: 'e', emptyDir: {} }];
        app(s).volumeDevices = [{ name: 'e', devicePath: '/dev/x' }];
      }),
    ),
    [
      'spec.containers[0].volumeDevices[0].name: Invalid value: "e": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
    ],
  );
});

test('resources: names, quantities, requests not above limits', () => {
  assert.deepEqual(
    messages(
      spec((s) => {
        app(s).resources = {
          requests: { cpu: '2', memory: '-1', gpu: '1', 'example.com/dongle': '1500m' },
          limits: { cpu: '1', 'hugepages-2Mi': '3Mi' },
        };
      }),
    ),
    [
      'spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
      'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
      'spec.containers[0].resources.requests[memory]: Invalid value: "-1": must be greater than or equal to 0',
      'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
      'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers',
      'spec.containers[0].resources.requests[example.com/dongle]: Invalid value: "1500m": must be an integer',
      'spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
    ],
  );
  assert.deepEqual(
    messages(spec((s) => (app(s).resources = { limits: { 'hugepages-2Mi': '2Mi' }, requests: { 'hugepages-2Mi': '2Mi' } }))),
    ['spec.containers[0].resources: Forbidden: HugePages require cpu or memory'],
  );
});

test('probes and lifecycle hooks', () => {
  assert.deepEqual(
    messages(
      spec((s) => {
        app(s).livenessProbe = { successThreshold: 2, periodSeconds: -1 };
        app(s).readinessProbe = {
          httpGet: { port: 'http-port-name-too-long' },
          exec: { command: ['x'] },
          terminationGracePeriodSeconds: 5,
        };
        app(s).lifecycle = { preStop: { tcpSocket: { port: 0 } } };
      }),
    ),
    [
      'spec.containers[0].lifecycle.preStop.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.containers[0].livenessProbe: Required value: must specify a handler type',
      'spec.containers[0].livenessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
      'spec.containers[0].readinessProbe.httpGet: Forbidden: may not specify more than 1 handler type',
      'spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes',
    ],
  );
  assert.deepEqual(messages(spec((s) => (s.initContainers = [{ name: 'init', image: 'i', startupProbe: { exec: { command: ['x'] } } }]))), [
    'spec.initContainers[0].startupProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
  ]);
});

test('enumerations and ranges of the pod spec', () => {
  assert.deepEqual(
    messages(
      spec((s) => {
        s.restartPolicy = 'Sometimes';
        s.dnsPolicy = 'Google';
        s.activeDeadlineSeconds = 0;
        s.hostname = 'a.b';
        s.subdomain = 'Sub';
        s.serviceAccountName = 'Bad_SA';
        s.nodeSelector = { 'bad key!': 'v' };
        s.preemptionPolicy = 'Always';
      }),
    ),
    [
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
      `spec.nodeSelector: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      `spec.serviceAccountName: Invalid value: "Bad_SA": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      'spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive',
      'spec.hostname: Invalid value: "a.b": must not contain dots',
      `spec.subdomain: Invalid value: "Sub": ${LABEL_ERR}`,
      'spec.preemptionPolicy: Unsupported value: "Always": supported values: "PreemptLowerPriority", "Never"',
    ],
  );
  const raw: PodSpec = { containers: [{ name: 'a', image: 'x', imagePullPolicy: '', terminationMessagePolicy: '' }] };
  assert.deepEqual(messages(raw), [
    'spec.terminationGracePeriodSeconds: Required value',
    'spec.containers[0].terminationMessagePolicy: Required value',
    'spec.containers[0].imagePullPolicy: Required value',
    'spec.restartPolicy: Required value',
    'spec.dnsPolicy: Required value',
  ]);
});

test('tolerations, affinity and topology spread constraints', () => {
  assert.deepEqual(
    messages(
      spec((s) => {
        s.tolerations = [
          { operator: 'Equal', value: 'v' },
          { key: 'k', operator: 'Exists', value: 'v' },
          { key: 'k', tolerationSeconds: 5, effect: 'NoSchedule' },
          { key: 'k', operator: 'In' },
        ];
      }),
    ),
    [
      'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      'spec.tolerations[1].operator: Invalid value: "v": value must be empty when `operator` is \'Exists\'',
      'spec.tolerations[2].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
      'spec.tolerations[3].operator: Unsupported value: "In": supported values: "Equal", "Exists"',
    ],
  );
  assert.deepEqual(
    messages(
      spec((s) => {
        s.affinity = {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] },
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 0, preference: { matchExpressions: [{ key: 'k', operator: 'Gt', values: [] }] } },
            ],
          },
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchExpressions: [{ key: 'a', operator: 'Maybe' }] }, topologyKey: 'zone' },
            ],
          },
        };
      }),
    ),
    [
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
      'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
      "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'",
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].operator: Invalid value: "Maybe": not a valid selector operator',
    ],
  );
  assert.deepEqual(
    messages(
      spec(
        (s) =>
          (s.topologySpreadConstraints = [
            { maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2 },
            { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway' },
          ]),
      ),
    ),
    [
      'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
      'spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, ScheduleAnyway}"',
      'spec.topologySpreadConstraints[0].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
    ],
  );
});

test('security contexts, DNS config, host network ports', () => {
  assert.deepEqual(
    messages(
      spec((s) => {
        s.securityContext = {
          runAsUser: -1,
          fsGroupChangePolicy: 'Sometimes',
          seccompProfile: { type: 'Localhost' },
          sysctls: [{ name: 'net.core.somaxconn' } as Sysctl, { name: 'net.core.somaxconn' } as Sysctl],
        };
        s.hostNetwork = true;
        app(s).securityContext = { allowPrivilegeEscalation: false, privileged: true };
        app(s).ports = [{ containerPort: 80, hostPort: 81 }];
        s.dnsPolicy = 'None';
      }),
      true,
    ),
    [
      'spec.containers[0].securityContext: Invalid value: {"allowPrivilegeEscalation":false,"privileged":true}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
      'spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true',
      'spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
      'spec.securityContext.sysctls[0].name: Invalid value: "net.core.somaxconn": may not be specified when \'hostNetwork\' is true',
      'spec.securityContext.sysctls[1].name: Duplicate value: "net.core.somaxconn"',
      'spec.securityContext.sysctls[1].name: Invalid value: "net.core.somaxconn": may not be specified when \'hostNetwork\' is true',
      'spec.securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"',
      'spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost',
      'spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None',
    ],
  );
});

test('pod templates: labels, annotations, no ephemeral containers', () => {
  const template = {
    metadata: { labels: { 'a/b/c': 'x' } },
    spec: spec((s) => (s.ephemeralContainers = [{ name: 'dbg', image: 'busybox' }])),
  };
  assert.deepEqual(validatePodTemplateSpec(template, fieldPath('spec', 'template'), { domain: ctx.domain }).map(errorMessage), [
    `spec.template.labels: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    'spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template',
  ]);
});

test('OS-specific fields and resource field divisors', () => {
  assert.deepEqual(
    messages(
      spec((s) => {
        s.os = { name: 'windows' };
        s.hostPID = true;
        s.securityContext = { runAsUser: 1 };
        app(s).securityContext = { privileged: true };
      }),
    ),
    [
      'spec.hostPID: Forbidden: cannot be set for a windows pod',
      'spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod',
      'spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod',
    ],
  );
  assert.deepEqual(messages(spec((s) => (s.os = { name: 'plan9' }))), [
    'spec.os.name: Unsupported value: "plan9": supported values: "linux", "windows"',
  ]);
  assert.deepEqual(
    messages(
      spec(
        (s) =>
          (app(s).env = [
            { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '2' } } },
            { name: 'X', valueFrom: { resourceFieldRef: { resource: 'limits.gpu' } } },
          ]),
      ),
    ),
    [
      'spec.containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value: "limits.cpu": only divisor\'s values 1m and 1 are supported with the cpu resource',
      'spec.containers[0].env[1].valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
    ],
  );
  assert.deepEqual(messages(spec((s) => (s.securityContext = { sysctls: [{ name: 'Kernel.X' } as Sysctl] }))), [
    'spec.securityContext.sysctls[0].name: Invalid value: "Kernel.X": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
  ]);
});
