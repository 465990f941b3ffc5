/**
 * Every admission plugin orch has, in the one order they run (Kubernetes 1.28's AllOrderedPlugins,
 * whatever order the flags name them in), and which of them are on by default (Kubernetes 1.28's
 * default-on set, restricted to the plugins orch has). A plugin is a name and a factory from its
 * configuration; the list is the registry, nothing registers itself.
 */
import type { PluginFactory } from './interfaces.js';
import { newAlwaysAdmit } from './plugins/always-admit.js';
import { newAlwaysDeny } from './plugins/always-deny.js';
import { newNamespaceLifecycle } from './plugins/namespace-lifecycle.js';
import { newCertificateApproval } from './plugins/certificate-approval.js';
import { newCertificateSigning } from './plugins/certificate-signing.js';
import { newCertificateSubjectRestriction } from './plugins/certificate-subject-restriction.js';

export interface PluginEntry {
  name: string;
  factory: PluginFactory;
  /** On unless --disable-admission-plugins names it. */
  defaultOn: boolean;
}

export const PLUGIN_TABLE: readonly PluginEntry[] = [
  { name: 'AlwaysAdmit', factory: newAlwaysAdmit, defaultOn: false },
  { name: 'NamespaceLifecycle', factory: newNamespaceLifecycle, defaultOn: true },
  { name: 'CertificateApproval', factory: ({ domain, authorizer }) => newCertificateApproval(domain, authorizer), defaultOn: true },
  { name: 'CertificateSigning', factory: ({ domain, authorizer }) => newCertificateSigning(domain, authorizer), defaultOn: true },
  { name: 'CertificateSubjectRestriction', factory: ({ domain }) => newCertificateSubjectRestriction(domain), defaultOn: true },
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
