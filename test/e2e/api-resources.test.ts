/**
 * End to end (issue 18): with --api-domain=k8s.io, `kubectl api-resources` lists exactly the built-in
 * resources kube-apiserver 1.28 lists (APIService included, issue 27) — the review kinds
 * (TokenReview, SubjectAccessReview, …) that their own issues add — with the same short names, API
 * versions, scopes and kinds; and the discovery documents carry Kubernetes' storage version hashes.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { newKubectl } from '../support/kubectl.js';

/** `kubectl api-resources --no-headers` against kube-apiserver 1.28 (default feature gates), as NAME SHORTNAMES APIVERSION NAMESPACED KIND. */
const KUBE_1_28 = `
bindings - v1 true Binding
componentstatuses cs v1 false ComponentStatus
configmaps cm v1 true ConfigMap
endpoints ep v1 true Endpoints
events ev v1 true Event
limitranges limits v1 true LimitRange
namespaces ns v1 false Namespace
nodes no v1 false Node
persistentvolumeclaims pvc v1 true PersistentVolumeClaim
persistentvolumes pv v1 false PersistentVolume
pods po v1 true Pod
podtemplates - v1 true PodTemplate
replicationcontrollers rc v1 true ReplicationController
resourcequotas quota v1 true ResourceQuota
secrets - v1 true Secret
serviceaccounts sa v1 true ServiceAccount
services svc v1 true Service
mutatingwebhookconfigurations - admissionregistration.k8s.io/v1 false MutatingWebhookConfiguration
validatingwebhookconfigurations - admissionregistration.k8s.io/v1 false ValidatingWebhookConfiguration
customresourcedefinitions crd,crds apiextensions.k8s.io/v1 false CustomResourceDefinition
apiservices - apiregistration.k8s.io/v1 false APIService
controllerrevisions - apps/v1 true ControllerRevision
daemonsets ds apps/v1 true DaemonSet
deployments deploy apps/v1 true Deployment
replicasets rs apps/v1 true ReplicaSet
statefulsets sts apps/v1 true StatefulSet
horizontalpodautoscalers hpa autoscaling/v2 true HorizontalPodAutoscaler
cronjobs cj batch/v1 true CronJob
jobs - batch/v1 true Job
certificatesigningrequests csr certificates.k8s.io/v1 false CertificateSigningRequest
leases - coordination.k8s.io/v1 true Lease
endpointslices - discovery.k8s.io/v1 true EndpointSlice
events ev events.k8s.io/v1 true Event
flowschemas - flowcontrol.apiserver.k8s.io/v1beta3 false FlowSchema
prioritylevelconfigurations - flowcontrol.apiserver.k8s.io/v1beta3 false PriorityLevelConfiguration
ingressclasses - networking.k8s.io/v1 false IngressClass
ingresses ing networking.k8s.io/v1 true Ingress
networkpolicies netpol networking.k8s.io/v1 true NetworkPolicy
runtimeclasses - node.k8s.io/v1 false RuntimeClass
poddisruptionbudgets pdb policy/v1 true PodDisruptionBudget
clusterrolebindings - rbac.authorization.k8s.io/v1 false ClusterRoleBinding
clusterroles - rbac.authorization.k8s.io/v1 false ClusterRole
rolebindings - rbac.authorization.k8s.io/v1 true RoleBinding
roles - rbac.authorization.k8s.io/v1 true Role
priorityclasses pc scheduling.k8s.io/v1 false PriorityClass
csidrivers - storage.k8s.io/v1 false CSIDriver
csinodes - storage.k8s.io/v1 false CSINode
csistoragecapacities - storage.k8s.io/v1 true CSIStorageCapacity
storageclasses sc storage.k8s.io/v1 false StorageClass
volumeattachments - storage.k8s.io/v1 false VolumeAttachment
`
  .trim()
  .split('\n');

/** The review kinds other issues add (authentication and authorization). */
const REVIEWS =
  /^(tokenreviews|selfsubjectreviews|localsubjectaccessreviews|selfsubjectaccessreviews|selfsubjectrulesreviews|subjectaccessreviews) /;

/** What issue 27 serves as Kubernetes 1.30 does (ValidatingAdmissionPolicy is GA, on by default there), as 1.30 lists it. */
const KUBE_1_30_POLICIES = [
  'validatingadmissionpolicies - admissionregistration.k8s.io/v1 false ValidatingAdmissionPolicy',
  'validatingadmissionpolicybindings - admissionregistration.k8s.io/v1 false ValidatingAdmissionPolicyBinding',
];

/** orch's own group (issue 28): the revision ledger's listing and Restore, not in Kubernetes. */
const ORCH_HISTORY = ['deletedobjects - history.k8s.io/v1 true DeletedObject', 'restores - history.k8s.io/v1 false Restore'];

/** storageVersionHash of some resources, as kube-apiserver 1.28 publishes them. */
const HASHES: [string, string, string][] = [
  ['/api/v1', 'pods', 'xPOwRZ+Yhw8='],
  ['/api/v1', 'configmaps', 'qFsyl6wFWjQ='],
  ['/api/v1', 'events', 'r2yiGXH7wu8='],
  ['/apis/events.k8s.io/v1', 'events', 'r2yiGXH7wu8='],
  ['/apis/apps/v1', 'deployments', '8aSe+NMegvE='],
  ['/apis/autoscaling/v1', 'horizontalpodautoscalers', 'qwQve8ut294='],
  ['/apis/autoscaling/v2', 'horizontalpodautoscalers', 'qwQve8ut294='],
];

describe('kubectl api-resources in k8s.io mode', () => {
  let s: TestServer;
  let k: ReturnType<typeof newKubectl>;

  before(async () => {
    s = await startTestServer({ args: ['--api-domain=k8s.io'] });
    k = newKubectl(s.kubeconfig);
  });
  after(() => s?.stop());

  it('lists every built-in resource kube-apiserver 1.28 lists, as it lists them', async () => {
    const out = await k.ok(['api-resources', '--no-headers']);
    const got = out
      .trim()
      .split('\n')
      .map((line) => {
        const cells = line.trim().split(/\s+/);
        // SHORTNAMES is blank when a resource has none.
        return (cells.length === 4 ? [cells[0], '-', ...cells.slice(1)] : cells).join(' ');
      })
      .filter((line) => !REVIEWS.test(line));
    assert.deepEqual(
      got.filter((line) => KUBE_1_30_POLICIES.includes(line)),
      KUBE_1_30_POLICIES,
    );
    assert.deepEqual(
      got.filter((line) => ORCH_HISTORY.includes(line)),
      ORCH_HISTORY,
    );
    assert.deepEqual(
      got.filter((line) => !KUBE_1_30_POLICIES.includes(line) && !ORCH_HISTORY.includes(line)),
      KUBE_1_28,
    );
  });

  it('discovery entries carry Kubernetes storage version hashes', async () => {
    for (const [path, name, hash] of HASHES) {
      const r = await s.client.get(path);
      const entry = r.body.resources.find((x: { name: string }) => x.name === name);
      assert.equal(entry?.storageVersionHash, hash, `${path} ${name}`);
    }
  });
});
