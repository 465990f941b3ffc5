/**
 * The kinds the fuzz suite writes: where each lives, a valid object of it (the seed every body,
 * patch and apply is mutated from), and what it supports (protobuf, strategic merge patch). A custom
 * resource (the CronTab of Kubernetes' documentation) and CRDs themselves are among them.
 */
import { cronTabCrd } from '../support/crd-fixtures.js';
import type { Random } from './random.js';

export type KindName = 'configmap' | 'secret' | 'pod' | 'deployment' | 'crontab' | 'crd';

export interface FuzzKind {
  name: KindName;
  /** Short, for object names. */
  short: string;
  apiVersion: string;
  kind: string;
  namespaced: boolean;
  /** The collection path (in the namespace, when namespaced). */
  collection(namespace: string): string;
  /** Has a protobuf form (built-in kinds). */
  protobuf: boolean;
  /** Takes strategic merge patches (built-in kinds; custom resources answer 415). */
  strategic: boolean;
  subresources: string[];
  /** A valid object of the kind. */
  template(name: string, namespace: string, r: Random): Record<string, any>;
}

export const CRONTAB_GROUP = 'stable.example.com';
const CRDS = '/apis/apiextensions.orch.io/v1/customresourcedefinitions';

const b64 = (s: string) => Buffer.from(s).toString('base64');

function meta(name: string, namespace: string, r: Random, namespaced = true): Record<string, any> {
  return {
    name,
    ...(namespaced ? { namespace } : {}),
    labels: { app: 'fuzz', tier: r.pick(['web', 'db', 'cache']), 'example.com/owner': 'lane' },
    annotations: { note: r.pick(['first', 'second', 'a longer note with spaces']) },
  };
}

function container(r: Random, name = 'app'): Record<string, any> {
  return {
    name,
    image: r.pick(['busybox:1.36', 'nginx:1.25', `registry.example.com/team/app@sha256:${'a'.repeat(64)}`]),
    command: ['sh', '-c', 'sleep 3600'],
    ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
    env: [
      { name: 'MODE', value: 'fuzz' },
      { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ],
    resources: { limits: { cpu: '200m', memory: '64Mi' }, requests: { cpu: '100m', memory: '32Mi' } },
    volumeMounts: [{ name: 'data', mountPath: '/data' }],
  };
}

function podSpec(r: Random): Record<string, any> {
  return {
    containers: [container(r), ...(r.chance(0.5) ? [container(r, 'side')] : [])],
    volumes: [{ name: 'data', emptyDir: {} }],
    restartPolicy: 'Always',
    tolerations: [{ key: 'example.com/fuzz', operator: 'Exists', effect: 'NoSchedule' }],
    nodeSelector: { 'kubernetes.io/os': 'linux' },
  };
}

export const KINDS: Record<KindName, FuzzKind> = {
  configmap: {
    name: 'configmap',
    short: 'cm',
    apiVersion: 'v1',
    kind: 'ConfigMap',
    namespaced: true,
    collection: (ns) => `/api/v1/namespaces/${ns}/configmaps`,
    protobuf: true,
    strategic: true,
    subresources: [],
    template: (name, ns, r) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta(name, ns, r),
      data: { a: '1', b: 'two', 'file.txt': 'line one\nline two\n' },
      binaryData: { bin: b64('\u0000\u0001binary') },
    }),
  },
  secret: {
    name: 'secret',
    short: 'sec',
    apiVersion: 'v1',
    kind: 'Secret',
    namespaced: true,
    collection: (ns) => `/api/v1/namespaces/${ns}/secrets`,
    protobuf: true,
    strategic: true,
    subresources: [],
    template: (name, ns, r) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta(name, ns, r),
      type: 'Opaque',
      data: { user: b64('admin'), password: b64('s3cret') },
      ...(r.chance(0.3) ? { stringData: { extra: 'plain' } } : {}),
    }),
  },
  pod: {
    name: 'pod',
    short: 'pod',
    apiVersion: 'v1',
    kind: 'Pod',
    namespaced: true,
    collection: (ns) => `/api/v1/namespaces/${ns}/pods`,
    protobuf: true,
    strategic: true,
    subresources: ['status', 'ephemeralcontainers', 'log', 'binding', 'eviction'],
    template: (name, ns, r) => ({ apiVersion: 'v1', kind: 'Pod', metadata: meta(name, ns, r), spec: podSpec(r) }),
  },
  deployment: {
    name: 'deployment',
    short: 'dep',
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespaced: true,
    collection: (ns) => `/apis/apps/v1/namespaces/${ns}/deployments`,
    protobuf: true,
    strategic: true,
    subresources: ['status', 'scale'],
    template: (name, ns, r) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta(name, ns, r),
      spec: {
        replicas: r.int(0, 3),
        selector: { matchLabels: { app: name } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
        template: { metadata: { labels: { app: name } }, spec: podSpec(r) },
      },
    }),
  },
  crontab: {
    name: 'crontab',
    short: 'ct',
    apiVersion: `${CRONTAB_GROUP}/v1`,
    kind: 'CronTab',
    namespaced: true,
    collection: (ns) => `/apis/${CRONTAB_GROUP}/v1/namespaces/${ns}/crontabs`,
    protobuf: false,
    strategic: false,
    subresources: ['status', 'scale'],
    template: (name, ns, r) => ({
      apiVersion: `${CRONTAB_GROUP}/v1`,
      kind: 'CronTab',
      metadata: meta(name, ns, r),
      spec: {
        cronSpec: r.pick(['* * * * */5', '0 0 * * *']),
        image: 'cron:1',
        replicas: r.int(1, 10),
        mode: r.pick(['fast', 'slow']),
        labels: { a: 'b' },
        ports: [
          { name: 'p1', port: 1 },
          { name: 'p2', port: 2 },
        ],
        free: { anything: { deep: [1, 'two', { three: null }] } },
        size: r.pick(['10%', 3]),
      },
    }),
  },
  crd: {
    name: 'crd',
    short: 'crd',
    apiVersion: 'apiextensions.orch.io/v1',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    collection: () => CRDS,
    protobuf: false,
    strategic: true,
    subresources: ['status'],
    // The name is `<plural>.fuzz.example.com`: the plural is the name's first label.
    template: (name, _ns, r) => {
      const plural = name.split('.')[0];
      const crd = cronTabCrd({
        group: 'fuzz.example.com',
        names: { plural, singular: plural.slice(0, -1), kind: `Fz${plural.replace(/[^a-z0-9]/g, '')}`, shortNames: [] },
        scope: r.pick(['Namespaced', 'Cluster']),
      });
      crd.metadata = { name, labels: { app: 'fuzz' } };
      return crd;
    },
  },
};

export const KIND_NAMES = Object.keys(KINDS) as KindName[];

/** The names a lane writes of a kind (its own, so a lane's reads after its writes see only its writes). */
export function laneNames(kind: FuzzKind, lane: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    kind.name === 'crd' ? `fz${lane}x${i}s.fuzz.example.com` : `f${lane}-${kind.short}-${i}`,
  );
}

export function itemPath(kind: FuzzKind, namespace: string, name: string): string {
  return `${kind.collection(namespace)}/${encodeURIComponent(name)}`;
}
