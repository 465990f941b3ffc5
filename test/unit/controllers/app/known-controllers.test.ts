import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import {
  CONTROLLER_ROLE_PREFIX,
  controllerRoleBindings,
  controllerRoles,
} from '../../../../apiserver/authorization/rbac/bootstrap/controller-roles.js';
import { namespaceRoleBindings, namespaceRoles } from '../../../../apiserver/authorization/rbac/bootstrap/namespace-roles.js';
import { KNOWN_CONTROLLERS } from '../../../../controllers/app/known-controllers.js';
import type { ControllerConfig, ControllerDescriptor } from '../../../../controllers/controllerutil/controller-descriptor.js';
import { DEFAULT_EVICTION_RATES } from '../../../../controllers/nodelifecycle/zone-eviction.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const CONTROLLERS_DIR = fileURLToPath(new URL('../../../../../controllers/', import.meta.url));

/** kube-controller-manager's names, aliases and defaults, as --controllers has always read them. */
const EXPECTED: [name: string, alias: string, defaultOn: boolean, controllerClass: string | undefined][] = [
  ['bootstrap-signer-controller', 'bootstrapsigner', false, 'BootstrapSigner'],
  ['certificatesigningrequest-approving-controller', 'csrapproving', true, 'CsrApprovingController'],
  ['certificatesigningrequest-cleaner-controller', 'csrcleaner', true, 'CsrCleaner'],
  // Off without a CA (none configured here).
  ['certificatesigningrequest-signing-controller', 'csrsigning', true, undefined],
  ['clusterrole-aggregation-controller', 'clusterrole-aggregation', true, 'ClusterRoleAggregationController'],
  ['cronjob-controller', 'cronjob', true, 'CronJobController'],
  ['daemonset-controller', 'daemonset', true, 'DaemonSetController'],
  ['deployment-controller', 'deployment', true, 'DeploymentController'],
  ['disruption-controller', 'disruption', true, 'DisruptionController'],
  ['endpoints-controller', 'endpoint', true, 'EndpointsController'],
  ['endpointslice-controller', 'endpointslice', true, 'EndpointSliceController'],
  ['endpointslice-mirroring-controller', 'endpointslicemirroring', true, 'EndpointSliceMirroringController'],
  ['garbage-collector-controller', 'garbagecollector', true, 'GarbageCollector'],
  ['job-controller', 'job', true, 'JobController'],
  ['legacy-serviceaccount-token-cleaner-controller', 'legacy-service-account-token-cleaner', false, 'LegacyTokenCleaner'],
  ['namespace-controller', 'namespace', true, 'NamespaceController'],
  ['node-lifecycle-controller', 'nodelifecycle', true, 'NodeLifecycleController'],
  ['persistentvolume-binder-controller', 'persistentvolume-binder', true, 'PvBinderController'],
  ['persistentvolume-protection-controller', 'pv-protection', true, 'PvProtectionController'],
  ['persistentvolumeclaim-protection-controller', 'pvc-protection', true, 'PvcProtectionController'],
  ['pod-garbage-collector-controller', 'podgc', true, 'PodGcController'],
  ['replicaset-controller', 'replicaset', true, 'ReplicaSetController'],
  ['replicationcontroller-controller', 'replicationcontroller', true, 'ReplicaSetController'],
  ['resourcequota-controller', 'resourcequota', true, 'ResourceQuotaController'],
  ['root-ca-certificate-publisher-controller', 'root-ca-cert-publisher', true, 'RootCaCertPublisher'],
  ['serviceaccount-controller', 'serviceaccount', true, 'ServiceAccountsController'],
  // Off without --service-account-private-key-file.
  ['serviceaccount-token-controller', 'serviceaccount-token', true, undefined],
  ['statefulset-controller', 'statefulset', true, 'StatefulSetController'],
  ['token-cleaner-controller', 'tokencleaner', false, 'TokenCleaner'],
  ['ttl-after-finished-controller', 'ttl-after-finished', true, 'TtlAfterFinishedController'],
  ['ttl-controller', 'ttl', true, 'TtlController'],
];

const CONFIG: ControllerConfig = {
  concurrentGcSyncs: 20,
  concurrentNamespaceSyncs: 10,
  namespaceSyncPeriodMs: 300_000,
  nodeEviction: DEFAULT_EVICTION_RATES,
  legacyTokenCleanUpPeriodMs: 365 * 24 * 3_600_000,
  serviceAccountKeyFile: '',
  csrSigning: { cas: {}, durationMs: 365 * 24 * 3_600_000 },
};

test('the list holds every controller once, by its names and default, in --controllers order', () => {
  assert.deepEqual(
    KNOWN_CONTROLLERS.map((c) => [c.name, c.aliases, c.defaultOn]),
    EXPECTED.map(([name, alias, defaultOn]) => [name, [alias], defaultOn]),
  );
  const names = KNOWN_CONTROLLERS.flatMap((c) => [c.name, ...c.aliases]);
  assert.equal(new Set(names).size, names.length, 'a name or alias is used twice');
});

test('every descriptor a controller folder exports is in the list (a folder and one line add a controller)', async () => {
  const exported: ControllerDescriptor[] = [];
  for (const entry of readdirSync(CONTROLLERS_DIR, { withFileTypes: true })) {
    if (!entry.isDirectory() || !readdirSync(`${CONTROLLERS_DIR}${entry.name}`).includes('descriptor.ts')) continue;
    const mod = (await import(`../../../../controllers/${entry.name}/descriptor.js`)) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      if (value && typeof value === 'object' && 'start' in value) exported.push(value as ControllerDescriptor);
    }
  }
  assert.equal(exported.length, KNOWN_CONTROLLERS.length);
  for (const d of exported) assert.ok(KNOWN_CONTROLLERS.includes(d), `${d.name} is exported but not in known-controllers.ts`);
});

test("each descriptor's account has its system:controller: role and binding in the API server's bootstrap policy", () => {
  const domain = newApiDomain('orch.io');
  const roles = new Set([...controllerRoles(domain), ...namespaceRoles(domain)].map((r) => r.metadata.name));
  const bound = new Set(
    [...controllerRoleBindings(domain), ...namespaceRoleBindings(domain)].flatMap((b) =>
      (b.subjects ?? []).map((s) => `${b.roleRef.name}=${s.kind}/${s.namespace}/${s.name}`),
    ),
  );
  const accounts = new Set<string>();
  for (const c of KNOWN_CONTROLLERS) {
    if (!c.serviceAccount) continue;
    accounts.add(c.serviceAccount);
    const role = CONTROLLER_ROLE_PREFIX + c.serviceAccount;
    assert.ok(roles.has(role), `${c.name}: no role ${role}`);
    assert.ok(
      bound.has(`${role}=ServiceAccount/${domain.systemNamespace}/${c.serviceAccount}`),
      `${c.name}: ${role} is not bound to its account`,
    );
  }
  assert.deepEqual(
    KNOWN_CONTROLLERS.filter((c) => !c.serviceAccount).map((c) => c.name),
    ['serviceaccount-token-controller'],
    'only the token controller runs as the controller manager itself',
  );
  // Three certificate controllers share one account, as in Kubernetes.
  assert.equal(accounts.size, KNOWN_CONTROLLERS.length - 1 - 2);
});

test('each descriptor starts its controller over a context, or leaves it off when its configuration does', async () => {
  for (const [i, descriptor] of KNOWN_CONTROLLERS.entries()) {
    const fake = newFakeContext();
    // The bootstrap signer publishes the server's address from the client's kubeconfig.
    const client = Object.assign(Object.create(fake.fake), { config: { server: 'https://127.0.0.1:6443' } });
    const ctx = { ...fake, client, rootCaPem: '-----BEGIN CERTIFICATE-----\n' };
    descriptor.check?.({ config: CONFIG, domain: ctx.domain, rootCaPem: ctx.rootCaPem });
    const controller = await descriptor.start(ctx, CONFIG);
    assert.equal(controller?.constructor.name, EXPECTED[i][3], descriptor.name);
    if (controller) assert.equal(typeof controller.run, 'function');
  }
});

test('the root CA publishers refuse to start without a root CA, naming themselves', () => {
  const domain = newApiDomain('orch.io');
  for (const name of ['bootstrap-signer-controller', 'root-ca-certificate-publisher-controller']) {
    const descriptor = KNOWN_CONTROLLERS.find((c) => c.name === name)!;
    assert.throws(() => descriptor.check?.({ config: CONFIG, domain }), {
      message: `${name}: no root CA: pass --root-ca-file or use a kubeconfig with certificate-authority data`,
    });
  }
});
