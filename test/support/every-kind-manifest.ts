/** One valid object of every served kind, for suites that need them all (kubectl, protobuf). */
import forge from 'node-forge';

function csrPem(): string {
  const keys = forge.pki.rsa.generateKeyPair(1024);
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = keys.publicKey;
  csr.setSubject([{ name: 'commonName', value: 'someone' }]);
  csr.sign(keys.privateKey);
  return forge.pki.certificationRequestToPem(csr);
}

const labels = { app: 'demo' };
const template = { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } };

export interface ManifestObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; [field: string]: unknown };
  [field: string]: unknown;
}

/** One object of every served kind (the test checks it against the resource table). */
export function manifest(d: string): ManifestObject[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'every' } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'secret' }, stringData: { a: '1' } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' } },
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'ev' },
      involvedObject: { kind: 'ConfigMap', name: 'cm', namespace: 'every' },
      reason: 'Made',
      message: 'made',
    },
    // No controller manager runs here to create the `default` account the ServiceAccount plugin wants.
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pod', labels }, spec: { ...template.spec, serviceAccountName: 'sa' } },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { selector: labels, ports: [{ port: 80, targetPort: 8080 }] } },
    {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'svc' },
      subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 8080 }] }],
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } },
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'pvc' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    },
    { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, spec: {} },
    {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'limits' },
      spec: { limits: [{ type: 'Container', default: { cpu: '500m' } }] },
    },
    { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'quota' }, spec: { hard: { pods: '10' } } },
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'deploy' }, spec: { selector: { matchLabels: labels }, template } },
    { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' }, spec: { selector: { matchLabels: labels }, template } },
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'sts' },
      spec: { serviceName: 'svc', selector: { matchLabels: labels }, template },
    },
    { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'ds' }, spec: { selector: { matchLabels: labels }, template } },
    { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'rev' }, data: { spec: {} }, revision: 1 },
    { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'rc' }, spec: { selector: labels, template } },
    { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'pt' }, template },
    {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'hpa' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'deploy' }, maxReplicas: 3 },
    },
    { apiVersion: `networking.${d}/v1`, kind: 'NetworkPolicy', metadata: { name: 'np' }, spec: { podSelector: {} } },
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'job' },
      spec: { template: { spec: { ...template.spec, restartPolicy: 'Never' } } },
    },
    {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'cron' },
      spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { ...template.spec, restartPolicy: 'OnFailure' } } } } },
    },
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'pdb' },
      spec: { minAvailable: 1, selector: { matchLabels: labels } },
    },
    {
      apiVersion: `discovery.${d}/v1`,
      kind: 'EndpointSlice',
      metadata: { name: 'svc-abc' },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.1.2.3'] }],
      ports: [{ port: 8080 }],
    },
    { apiVersion: `networking.${d}/v1`, kind: 'IngressClass', metadata: { name: 'nginx' }, spec: { controller: 'example.com/ingress' } },
    {
      apiVersion: `networking.${d}/v1`,
      kind: 'Ingress',
      metadata: { name: 'ing' },
      spec: {
        ingressClassName: 'nginx',
        rules: [
          {
            host: 'a.example.com',
            http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'svc', port: { number: 80 } } } }] },
          },
        ],
      },
    },
    { apiVersion: `storage.${d}/v1`, kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'example.com/fast' },
    { apiVersion: `storage.${d}/v1`, kind: 'CSIDriver', metadata: { name: 'csi.example.com' }, spec: {} },
    {
      apiVersion: `storage.${d}/v1`,
      kind: 'CSINode',
      metadata: { name: 'node-1' },
      spec: { drivers: [{ name: 'csi.example.com', nodeID: 'n1' }] },
    },
    {
      apiVersion: `storage.${d}/v1`,
      kind: 'VolumeAttachment',
      metadata: { name: 'va' },
      spec: { attacher: 'csi.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv' } },
    },
    { apiVersion: `storage.${d}/v1`, kind: 'CSIStorageCapacity', metadata: { name: 'cap' }, storageClassName: 'fast', capacity: '10Gi' },
    { apiVersion: `scheduling.${d}/v1`, kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 },
    { apiVersion: `node.${d}/v1`, kind: 'RuntimeClass', metadata: { name: 'runc' }, handler: 'runc' },
    {
      apiVersion: `flowcontrol.apiserver.${d}/v1beta3`,
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'pl' },
      spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } },
    },
    {
      apiVersion: `flowcontrol.apiserver.${d}/v1beta3`,
      kind: 'FlowSchema',
      metadata: { name: 'fs' },
      spec: {
        priorityLevelConfiguration: { name: 'pl' },
        rules: [
          { subjects: [{ kind: 'Group', group: { name: 'x' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] },
        ],
      },
    },
    {
      apiVersion: `coordination.${d}/v1`,
      kind: 'Lease',
      metadata: { name: 'lease' },
      spec: { holderIdentity: 'me', leaseDurationSeconds: 15 },
    },
    {
      apiVersion: `rbac.authorization.${d}/v1`,
      kind: 'Role',
      metadata: { name: 'reader' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
    },
    {
      apiVersion: `rbac.authorization.${d}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'reader' },
      roleRef: { apiGroup: `rbac.authorization.${d}`, kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'sa', namespace: 'every' }],
    },
    {
      apiVersion: `rbac.authorization.${d}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'every-reader' },
      rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
    },
    {
      apiVersion: `rbac.authorization.${d}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'every-reader' },
      roleRef: { apiGroup: `rbac.authorization.${d}`, kind: 'ClusterRole', name: 'every-reader' },
      subjects: [{ kind: 'Group', apiGroup: `rbac.authorization.${d}`, name: 'readers' }],
    },
    {
      apiVersion: `admissionregistration.${d}/v1`,
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'vwc' },
      webhooks: [
        {
          name: 'check.example.com',
          clientConfig: { url: 'https://hook.example.com/check' },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    },
    {
      apiVersion: `admissionregistration.${d}/v1`,
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'vap.example.com' },
      spec: {
        matchConstraints: {
          resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }],
        },
        validations: [{ expression: 'object.spec.replicas <= 100' }],
      },
    },
    {
      apiVersion: `admissionregistration.${d}/v1`,
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'vap-binding' },
      spec: { policyName: 'vap.example.com', validationActions: ['Deny'] },
    },
    {
      apiVersion: `admissionregistration.${d}/v1`,
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'mwc' },
      webhooks: [
        {
          name: 'mutate.example.com',
          clientConfig: { service: { namespace: 'every', name: 'svc' } },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    },
    {
      apiVersion: `certificates.${d}/v1`,
      kind: 'CertificateSigningRequest',
      metadata: { name: 'csr' },
      spec: { request: Buffer.from(csrPem()).toString('base64'), signerName: 'example.com/signer', usages: ['client auth'] },
    },
    {
      apiVersion: `events.${d}/v1`,
      kind: 'Event',
      metadata: { name: 'ev2' },
      eventTime: '2026-01-01T00:00:00.000000Z',
      reportingController: 'example.com/ctl',
      reportingInstance: 'ctl-1',
      action: 'Made',
      reason: 'Made',
      type: 'Normal',
      regarding: { kind: 'ConfigMap', name: 'cm', namespace: 'every' },
    },
    {
      apiVersion: `apiextensions.${d}/v1`,
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gizmos.every.example.com' },
      spec: {
        group: 'every.example.com',
        scope: 'Namespaced',
        names: { plural: 'gizmos', kind: 'Gizmo' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      },
    },
    {
      apiVersion: `apiregistration.${d}/v1`,
      kind: 'APIService',
      metadata: { name: 'v1.local.every.example.com' },
      spec: { group: 'local.every.example.com', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10 },
    },
  ];
}
