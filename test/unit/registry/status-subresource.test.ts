/**
 * What of a /status write's metadata each kind keeps, against the list read from Kubernetes 1.28's
 * status strategies (PrepareForUpdate in pkg/registry/<group>/<kind>/strategy.go, apiextensions' and
 * kube-aggregator's): most set only `new.Spec = old.Spec` and keep the request's labels, annotations,
 * finalizers and owner references; Deployment resets the labels; Pod the owner references;
 * VolumeAttachment (ResetObjectMetaForStatus), FlowSchema and PriorityLevelConfiguration
 * (`ObjectMeta = old`) and custom resources (the old object with the new status) reset all four. The
 * CRD's status strategy calls ResetObjectMetaForStatus(new, new), a no-op, so it keeps them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../apiserver/api/domain.js';
import type { ApiObject } from '../../../apiserver/api/object.js';
import type { StrategyContext, SubresourceStrategy } from '../../../apiserver/api/strategy.js';
import { customResourceStatus } from '../../../apiserver/registry/apiextensions/customresource/strategy.js';
import { allResources } from '../../../apiserver/registry/resources/index.js';

const ctx: StrategyContext = { domain: newApiDomain(), now: new Date('2024-01-01T00:00:00Z') };

type Field = 'labels' | 'annotations' | 'finalizers' | 'ownerReferences';
const ALL: Field[] = ['labels', 'annotations', 'finalizers', 'ownerReferences'];
const but = (...reset: Field[]) => ALL.filter((f) => !reset.includes(f));

// group/resource[/subresource] → the request's metadata fields the write keeps.
const EXPECTED: Record<string, Field[]> = {
  namespaces: ALL,
  pods: but('ownerReferences'),
  services: ALL,
  persistentvolumes: ALL,
  persistentvolumeclaims: ALL,
  nodes: ALL,
  resourcequotas: ALL,
  replicationcontrollers: ALL,
  'apps/deployments': but('labels'),
  'apps/replicasets': ALL,
  'apps/statefulsets': ALL,
  'apps/daemonsets': ALL,
  'autoscaling/horizontalpodautoscalers': ALL,
  'batch/jobs': ALL,
  'batch/cronjobs': ALL,
  'policy/poddisruptionbudgets': ALL,
  'networking.k8s.io/ingresses': ALL,
  'storage.k8s.io/volumeattachments': [],
  'certificates.k8s.io/certificatesigningrequests': ALL,
  'certificates.k8s.io/certificatesigningrequests/approval': ALL,
  'flowcontrol.apiserver.k8s.io/flowschemas': [],
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': [],
  'apiextensions.k8s.io/customresourcedefinitions': ALL,
  'admissionregistration.k8s.io/validatingadmissionpolicies': [],
  // kube-aggregator's apiServerStatusStrategy keeps the stored spec, labels, annotations, finalizers and owners.
  'apiregistration.k8s.io/apiservices': [],
};

const owner = (name: string) => [{ apiVersion: 'v1', kind: 'ConfigMap', name, uid: `uid-${name}` }];
const stored = (): ApiObject => ({
  apiVersion: 'x/v1',
  kind: 'X',
  metadata: {
    name: 'x',
    namespace: 'ns',
    uid: 'u',
    resourceVersion: '5',
    generation: 1,
    labels: { keep: 'old' },
    annotations: { note: 'old' },
    finalizers: ['example.com/old'],
    ownerReferences: owner('old'),
  },
  spec: { stored: true },
  status: {},
});
const request = (): ApiObject => ({
  ...stored(),
  metadata: {
    ...stored().metadata,
    labels: { keep: 'new', added: 'yes' },
    annotations: { note: 'new', 'deployment.kubernetes.io/revision': '2' },
    finalizers: ['example.com/new'],
    ownerReferences: owner('new'),
  },
  spec: { stored: false },
  status: {},
});

/** The metadata fields of `next` that are the request's (the others must be the stored ones). */
function keptFields(strategy: SubresourceStrategy): Field[] {
  const next = strategy.prepareForUpdate(request(), stored(), ctx);
  // A Namespace's name label is set on every write (Canonicalize), whoever's labels they are.
  if (next.metadata.labels?.['orch.io/metadata.name'] === 'x') {
    delete next.metadata.labels['orch.io/metadata.name'];
  }
  const kept: Field[] = [];
  for (const f of ALL) {
    const got = JSON.stringify(next.metadata[f]);
    if (got === JSON.stringify(request().metadata[f])) kept.push(f);
    else assert.equal(got, JSON.stringify(stored().metadata[f]), `${f} is neither the request's nor the stored one`);
  }
  assert.deepEqual(next.spec, { stored: true }, 'the spec stays as stored');
  return kept;
}

for (const d of allResources) {
  for (const sub of ['status', 'approval']) {
    const strategy = d.subresources?.[sub];
    if (!strategy) continue;
    const key = [d.kubernetesGroup, d.plural, sub === 'status' ? '' : sub].filter(Boolean).join('/');
    test(`${key} ${d.version}: /${sub} keeps ${EXPECTED[key]?.join(', ') || 'none'} of the request's metadata`, () => {
      assert.ok(EXPECTED[key], `${key}: classify its status strategy from Kubernetes' source`);
      assert.deepEqual(keptFields(strategy), EXPECTED[key]);
    });
  }
}

test("a custom resource's status write keeps the stored metadata", () => {
  assert.deepEqual(keptFields(customResourceStatus({ type: 'object' })), []);
});

test('a /status write without labels, annotations, finalizers or owners removes them where the kind keeps the request’s', () => {
  const strategy = allResources.find((d) => d.plural === 'replicasets')!.subresources!.status;
  const bare = request();
  for (const f of ALL) delete bare.metadata[f];
  const next = strategy.prepareForUpdate(bare, stored(), ctx);
  for (const f of ALL) assert.equal(next.metadata[f], undefined, f);
});
