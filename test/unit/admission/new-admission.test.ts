import { test } from 'node:test';
import assert from 'node:assert/strict';
import { enabledPluginNames, validateAdmissionOptions } from '../../../apiserver/admission/new-admission.js';
import { defaultOnPlugins, PLUGIN_TABLE, registeredPlugins } from '../../../apiserver/admission/plugin-table.js';

/** Kubernetes 1.28's default-on plugins (DefaultOffAdmissionPlugins' complement), in AllOrderedPlugins order. */
const KUBERNETES_DEFAULT_ON = [
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'TaintNodesByCondition',
  'PodSecurity',
  'Priority',
  'DefaultTolerationSeconds',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
];

/** Kubernetes 1.28's AllOrderedPlugins. */
const KUBERNETES_ORDER = [
  'AlwaysAdmit',
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'SecurityContextDeny',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'PodSecurity',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'PersistentVolumeLabel',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'AlwaysDeny',
];

test('the table runs plugins in Kubernetes’ order', () => {
  const registered = registeredPlugins();
  assert.deepEqual(
    registered,
    KUBERNETES_ORDER.filter((n) => registered.includes(n)),
  );
  for (const n of registered) assert.ok(KUBERNETES_ORDER.includes(n), `${n} is not a Kubernetes plugin`);
});

test('the default-on set is exactly Kubernetes 1.28’s, for the plugins orch has', () => {
  const registered = registeredPlugins();
  assert.deepEqual(
    defaultOnPlugins(),
    KUBERNETES_DEFAULT_ON.filter((n) => registered.includes(n)),
  );
  for (const p of PLUGIN_TABLE) assert.equal(p.defaultOn, KUBERNETES_DEFAULT_ON.includes(p.name), p.name);
});

test('enable adds to the defaults, disable removes defaults too, order stays the table’s', () => {
  assert.deepEqual(enabledPluginNames({ enablePlugins: [], disablePlugins: [] }), defaultOnPlugins());
  const on = enabledPluginNames({ enablePlugins: ['AlwaysDeny', 'AlwaysAdmit'], disablePlugins: ['NamespaceLifecycle'] });
  assert.deepEqual(on, ['AlwaysAdmit', ...defaultOnPlugins().filter((n) => n !== 'NamespaceLifecycle'), 'AlwaysDeny']);
});

test('unknown names and overlaps are refused with kube-apiserver’s words', () => {
  assert.deepEqual(validateAdmissionOptions({ enablePlugins: ['Nope'], disablePlugins: ['AlsoNope'], configFile: '' }), [
    'enable-admission-plugins plugin "Nope" is unknown',
    'disable-admission-plugins plugin "AlsoNope" is unknown',
  ]);
  assert.deepEqual(validateAdmissionOptions({ enablePlugins: ['AlwaysDeny'], disablePlugins: ['AlwaysDeny'], configFile: '' }), [
    '[AlwaysDeny] in enable-admission-plugins and disable-admission-plugins overlapped',
  ]);
});
