/**
 * Field selectors per kind: every served kind accepts exactly the field labels kube-apiserver 1.28
 * accepts for it. The list is read from Kubernetes' AddFieldLabelConversionFunc registrations
 * (pkg/apis/core/v1, batch/v1, certificates/v1, events/v1 conversion.go); every other built-in kind has
 * the default conversion (metadata.name, metadata.namespace), and custom resources
 * apiextensions' crConverter (metadata.name, metadata.namespace when namespaced).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import { newResourceTable } from '../../../../apiserver/api/resource-table.js';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import type { ResourceDef } from '../../../../apiserver/api/resource.js';
import { allResources } from '../../../../apiserver/registry/resources/index.js';
import { fieldLabelsOf, newSelection } from '../../../../apiserver/registry/generic/selection.js';
import { customResourceServing } from '../../../../apiserver/registry/apiextensions/customresource/resource-defs.js';

const META = ['metadata.name', 'metadata.namespace'];

/** group/version/kind → the labels its conversion accepts (kube-apiserver 1.28). */
const KUBERNETES: Record<string, string[]> = {
  '/v1/Pod': [
    ...META,
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.podIPs',
    'status.nominatedNodeName',
    'spec.host',
  ],
  '/v1/Node': ['metadata.name', 'spec.unschedulable'],
  '/v1/ReplicationController': [...META, 'status.replicas'],
  '/v1/Event': [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
    ...META,
  ],
  '/v1/Namespace': ['status.phase', 'metadata.name'],
  '/v1/Secret': ['type', ...META],
  'batch/v1/Job': [...META, 'status.successful'],
  'certificates.k8s.io/v1/CertificateSigningRequest': ['metadata.name', 'spec.signerName'],
  'events.k8s.io/v1/Event': [
    'reason',
    'regarding.kind',
    'regarding.namespace',
    'regarding.name',
    'regarding.uid',
    'regarding.apiVersion',
    'regarding.resourceVersion',
    'regarding.fieldPath',
    'reportingController',
    'type',
    ...META,
  ],
};

const labelsOf = (def: ResourceDef) => [...Object.keys(fieldLabelsOf(def)), ...Object.keys(def.fieldLabelAliases ?? {})].sort();
const gvk = (def: ResourceDef) => `${def.kubernetesGroup}/${def.version}/${def.kind}`;

test('every built-in kind accepts exactly the field labels kube-apiserver 1.28 does', () => {
  const table = newResourceTable(newApiDomain('k8s.io'), allResources);
  const seen = new Set<string>();
  for (const def of table.all()) {
    seen.add(gvk(def));
    assert.deepEqual(labelsOf(def), [...(KUBERNETES[gvk(def)] ?? META)].sort(), gvk(def));
  }
  for (const kind of Object.keys(KUBERNETES)) assert.ok(seen.has(kind), `${kind} is served`);
});

test("a label outside the list is refused with the conversion's own words", () => {
  const table = newResourceTable(newApiDomain(), allResources);
  const def = (group: string, resource: string) => table.all().find((d) => d.kubernetesGroup === group && d.plural === resource)!;
  const refusal = (d: ResourceDef, selector: string) => {
    try {
      newSelection(d, '', selector);
    } catch (err) {
      return (err as { status: { code: number; message: string } }).status;
    }
    return undefined;
  };
  assert.deepEqual(refusal(def('', 'services'), 'spec.type=ClusterIP'), {
    ...refusal(def('', 'services'), 'spec.type=ClusterIP'),
    code: 400,
    message: '"spec.type" is not a known field selector: only "metadata.name", "metadata.namespace"',
  });
  assert.equal(refusal(def('', 'nodes'), 'metadata.namespace=x')?.message, 'field label not supported: metadata.namespace');
  assert.equal(refusal(def('batch', 'jobs'), 'spec.x=1')?.message, 'field label "spec.x" not supported for Job');
  assert.equal(refusal(def('', 'persistentvolumes'), 'metadata.namespace='), undefined, 'the default conversion takes it');
});

test('values: CSRs by signer, Pods by spec.host (spec.nodeName), podIPs reads nothing', () => {
  const table = newResourceTable(newApiDomain(), allResources);
  const def = (group: string, resource: string) => table.all().find((d) => d.kubernetesGroup === group && d.plural === resource)!;
  const csr = (signerName: string) => ({ metadata: { name: signerName }, spec: { signerName } }) as unknown as ApiObject;
  const bySigner = newSelection(def('certificates.k8s.io', 'certificatesigningrequests'), '', 'spec.signerName=example.com/a');
  assert.deepEqual(
    [csr('example.com/a'), csr('example.com/b')].filter((o) => bySigner.matches(o)).map((o) => o.metadata.name),
    ['example.com/a'],
  );
  const pod = { metadata: { name: 'p', namespace: 'n' }, spec: { nodeName: 'n1' }, status: { podIPs: [{ ip: '10.0.0.1' }] } } as ApiObject;
  assert.ok(newSelection(def('', 'pods'), '', 'spec.host=n1').matches(pod));
  assert.ok(!newSelection(def('', 'pods'), '', 'spec.host=n2').matches(pod));
  assert.ok(newSelection(def('', 'pods'), '', 'status.podIPs=').matches(pod));
  assert.ok(!newSelection(def('', 'pods'), '', 'status.podIPs=10.0.0.1').matches(pod));
});

test('custom resources: metadata.name, and metadata.namespace when namespaced', () => {
  const crd = (scope: string) =>
    ({
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope,
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      },
    }) as never;
  const [namespaced] = customResourceServing(crd('Namespaced'), newApiDomain()).defs;
  const [cluster] = customResourceServing(crd('Cluster'), newApiDomain()).defs;
  assert.deepEqual(labelsOf(namespaced), META);
  assert.deepEqual(labelsOf(cluster), ['metadata.name']);
});
