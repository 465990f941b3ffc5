/**
 * Every admission plugin orch has, in the one order they run (Kubernetes 1.28's AllOrderedPlugins,
 * whatever order the flags name them in), and which of them are on by default (Kubernetes 1.28's
 * default-on set, restricted to the plugins orch has). A plugin is a name and a factory from its
 * configuration; the list is the registry, nothing registers itself.
 */
import type { PluginFactory } from './interfaces.js';
import { newAlwaysAdmit } from './plugins/always-admit.js';
import { newAlwaysDeny } from './plugins/always-deny.js';
import { newAlwaysPullImages } from './plugins/always-pull-images.js';
import { newDefaultIngressClass } from './plugins/default-ingress-class.js';
import { newDefaultStorageClass } from './plugins/default-storage-class.js';
import { newDefaultTolerationSeconds } from './plugins/default-toleration-seconds.js';
import { newDenyServiceExternalIPs } from './plugins/deny-service-external-ips.js';
import { newEventRateLimit } from './plugins/event-rate-limit.js';
import { newExtendedResourceToleration } from './plugins/extended-resource-toleration.js';
import { newImagePolicyWebhook } from './plugins/image-policy-webhook.js';
import { newLimitRanger } from './plugins/limit-ranger.js';
import { newServiceAccount } from './plugins/service-account.js';
import { newLimitPodHardAntiAffinityTopology } from './plugins/limit-pod-hard-anti-affinity-topology.js';
import { newNamespaceAutoProvision } from './plugins/namespace-autoprovision.js';
import { newNamespaceExists } from './plugins/namespace-exists.js';
import { newNamespaceLifecycle } from './plugins/namespace-lifecycle.js';
import { newNodeRestriction } from './plugins/node-restriction.js';
import { newCertificateApproval } from './plugins/certificate-approval.js';
import { newCertificateSigning } from './plugins/certificate-signing.js';
import { newCertificateSubjectRestriction } from './plugins/certificate-subject-restriction.js';
import { newOwnerReferencesPermissionEnforcement } from './plugins/owner-references-permission-enforcement.js';
import { newPersistentVolumeClaimResize } from './plugins/persistent-volume-claim-resize.js';
import { newPersistentVolumeLabel } from './plugins/persistent-volume-label.js';
import { newPodSecurity } from './plugins/pod-security.js';
import { newPodNodeSelector } from './plugins/pod-node-selector.js';
import { newPodTolerationRestriction } from './plugins/pod-toleration-restriction.js';
import { newMutatingAdmissionWebhook } from './plugins/mutating-admission-webhook.js';
import { newValidatingAdmissionWebhook } from './plugins/validating-admission-webhook.js';
import { newValidatingAdmissionPolicy } from './plugins/validating-admission-policy.js';
import { newResourceQuota } from './plugins/resource-quota.js';
import { newPriority } from './plugins/priority.js';
import { newRuntimeClass } from './plugins/runtime-class.js';
import { newSecurityContextDeny } from './plugins/security-context-deny.js';
import { newStorageObjectInUseProtection } from './plugins/storage-object-in-use-protection.js';
import { newTaintNodesByCondition } from './plugins/taint-nodes-by-condition.js';

export interface PluginEntry {
  name: string;
  factory: PluginFactory;
  /** On unless --disable-admission-plugins names it. */
  defaultOn: boolean;
}

export const PLUGIN_TABLE: readonly PluginEntry[] = [
  { name: 'AlwaysAdmit', factory: newAlwaysAdmit, defaultOn: false },
  { name: 'NamespaceAutoProvision', factory: newNamespaceAutoProvision, defaultOn: false },
  { name: 'NamespaceLifecycle', factory: newNamespaceLifecycle, defaultOn: true },
  { name: 'NamespaceExists', factory: newNamespaceExists, defaultOn: false },
  { name: 'SecurityContextDeny', factory: newSecurityContextDeny, defaultOn: false },
  { name: 'LimitPodHardAntiAffinityTopology', factory: newLimitPodHardAntiAffinityTopology, defaultOn: false },
  { name: 'LimitRanger', factory: newLimitRanger, defaultOn: true },
  { name: 'ServiceAccount', factory: newServiceAccount, defaultOn: true },
  { name: 'NodeRestriction', factory: newNodeRestriction, defaultOn: false },
  { name: 'TaintNodesByCondition', factory: newTaintNodesByCondition, defaultOn: true },
  { name: 'AlwaysPullImages', factory: newAlwaysPullImages, defaultOn: false },
  { name: 'ImagePolicyWebhook', factory: newImagePolicyWebhook, defaultOn: false },
  { name: 'PodSecurity', factory: newPodSecurity, defaultOn: true },
  { name: 'PodNodeSelector', factory: newPodNodeSelector, defaultOn: false },
  { name: 'Priority', factory: newPriority, defaultOn: true },
  { name: 'DefaultTolerationSeconds', factory: newDefaultTolerationSeconds, defaultOn: true },
  { name: 'PodTolerationRestriction', factory: newPodTolerationRestriction, defaultOn: false },
  { name: 'EventRateLimit', factory: newEventRateLimit, defaultOn: false },
  { name: 'ExtendedResourceToleration', factory: newExtendedResourceToleration, defaultOn: false },
  { name: 'PersistentVolumeLabel', factory: newPersistentVolumeLabel, defaultOn: false },
  { name: 'DefaultStorageClass', factory: newDefaultStorageClass, defaultOn: true },
  { name: 'StorageObjectInUseProtection', factory: newStorageObjectInUseProtection, defaultOn: true },
  { name: 'OwnerReferencesPermissionEnforcement', factory: newOwnerReferencesPermissionEnforcement, defaultOn: false },
  { name: 'PersistentVolumeClaimResize', factory: newPersistentVolumeClaimResize, defaultOn: true },
  { name: 'RuntimeClass', factory: newRuntimeClass, defaultOn: true },
  { name: 'CertificateApproval', factory: ({ domain, authorizer }) => newCertificateApproval(domain, authorizer), defaultOn: true },
  { name: 'CertificateSigning', factory: ({ domain, authorizer }) => newCertificateSigning(domain, authorizer), defaultOn: true },
  { name: 'CertificateSubjectRestriction', factory: ({ domain }) => newCertificateSubjectRestriction(domain), defaultOn: true },
  { name: 'DefaultIngressClass', factory: newDefaultIngressClass, defaultOn: true },
  { name: 'DenyServiceExternalIPs', factory: newDenyServiceExternalIPs, defaultOn: false },
  { name: 'MutatingAdmissionWebhook', factory: newMutatingAdmissionWebhook, defaultOn: true },
  { name: 'ValidatingAdmissionPolicy', factory: newValidatingAdmissionPolicy, defaultOn: true },
  { name: 'ValidatingAdmissionWebhook', factory: newValidatingAdmissionWebhook, defaultOn: true },
  { name: 'ResourceQuota', factory: newResourceQuota, defaultOn: true },
  { name: 'AlwaysDeny', factory: newAlwaysDeny, defaultOn: false },
];

/** Every registered plugin name, in execution order. */
export function registeredPlugins(): string[] {
  return PLUGIN_TABLE.map((p) => p.name);
}

/** The default-on plugins, in execution order. */
export function defaultOnPlugins(): string[] {
  return PLUGIN_TABLE.filter((p) => p.defaultOn).map((p) => p.name);
}
