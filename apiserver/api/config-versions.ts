/**
 * The apiVersions each configuration file kind may name: Kubernetes 1.28's own (every version its
 * decoders still register, so an operator's existing files work unchanged) and the same versions
 * under the API domain's group names (audit.orch.io/v1, abac.authorization.orch.io/v1beta1, …). One
 * table for every reader of a file given by a flag or named from one: the audit policy, the ABAC
 * policy file, the admission configuration and its plugins' configurations, the encryption
 * configuration, kubeconfigs and their exec plugins.
 */
import type { ApiDomain } from './domain.js';

export interface ConfigFileKind {
  /** The `kind` the document names (several: any of them). */
  kinds: readonly string[];
  /** Kubernetes' group/versions; a group under k8s.io or kubernetes.io is also accepted renamed by the domain. */
  versions: readonly string[];
}

/** Every configuration file kind orch reads, by what it configures. */
export const CONFIG_FILE_KINDS = {
  /** --audit-policy-file (audit/policy/reader.go registers v1 only since 1.24). */
  AuditPolicy: { kinds: ['Policy'], versions: ['audit.k8s.io/v1'] },
  /** --authorization-policy-file lines (v0 is the unversioned form, also accepted without apiVersion). */
  AbacPolicy: { kinds: ['Policy'], versions: ['abac.authorization.kubernetes.io/v1beta1', 'abac.authorization.kubernetes.io/v0'] },
  /** --admission-control-config-file (v1alpha1 lives in the older group apiserver.k8s.io). */
  AdmissionConfiguration: { kinds: ['AdmissionConfiguration'], versions: ['apiserver.config.k8s.io/v1', 'apiserver.k8s.io/v1alpha1'] },
  /** --encryption-provider-config. */
  EncryptionConfiguration: { kinds: ['EncryptionConfiguration'], versions: ['apiserver.config.k8s.io/v1'] },
  /** ValidatingAdmissionWebhook / MutatingAdmissionWebhook plugin configuration. */
  WebhookAdmission: {
    kinds: ['WebhookAdmissionConfiguration', 'WebhookAdmission'],
    versions: ['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1alpha1'],
  },
  /** EventRateLimit plugin configuration. */
  EventRateLimit: { kinds: ['Configuration'], versions: ['eventratelimit.admission.k8s.io/v1alpha1'] },
  /** PodTolerationRestriction plugin configuration. */
  PodTolerationRestriction: { kinds: ['Configuration'], versions: ['podtolerationrestriction.admission.k8s.io/v1alpha1'] },
  /** PodSecurity plugin configuration. */
  PodSecurity: {
    kinds: ['PodSecurityConfiguration'],
    versions: [
      'pod-security.admission.config.k8s.io/v1',
      'pod-security.admission.config.k8s.io/v1beta1',
      'pod-security.admission.config.k8s.io/v1alpha1',
    ],
  },
  /** A kubeconfig (clientcmd's Config is in the core group: the same in every domain). */
  Kubeconfig: { kinds: ['Config'], versions: ['v1'] },
  /** A kubeconfig user's exec plugin (its ExecCredential exchange). */
  ExecCredential: { kinds: ['ExecCredential'], versions: ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'] },
} as const satisfies Record<string, ConfigFileKind>;

export type ConfigFileKindName = keyof typeof CONFIG_FILE_KINDS;

/** A Kubernetes group/version as the domain names it (k8s.io groups and kubernetes.io prefixes renamed). */
function inDomain(groupVersion: string, domain: ApiDomain): string {
  const slash = groupVersion.lastIndexOf('/');
  if (slash < 0) return groupVersion;
  const group = groupVersion.slice(0, slash);
  const version = groupVersion.slice(slash + 1);
  if (group.endsWith('.kubernetes.io')) return `${group.slice(0, -'kubernetes.io'.length)}${domain.labelPrefix}/${version}`;
  return `${domain.group(group)}/${version}`;
}

/** The apiVersions a file of this kind may name: Kubernetes' first, then the domain's names of them. */
export function acceptedApiVersions(name: ConfigFileKindName, domain: ApiDomain): string[] {
  const versions: readonly string[] = CONFIG_FILE_KINDS[name].versions;
  return [...new Set([...versions, ...versions.map((v) => inDomain(v, domain))])];
}

/** Whether `apiVersion` is one a file of this kind may name. */
export function isAcceptedApiVersion(name: ConfigFileKindName, apiVersion: unknown, domain: ApiDomain): apiVersion is string {
  return typeof apiVersion === 'string' && acceptedApiVersions(name, domain).includes(apiVersion);
}

/** The version part of an accepted apiVersion ("v1", "v1beta1", …). */
export function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
}

export interface TypeCheck {
  /** A document without apiVersion passes (read as the reader's default version: ABAC v0, orch's untyped plugin configurations). */
  allowUntyped?: boolean;
}

/**
 * Checks a document's apiVersion and kind against the kind's table entry; returns a problem naming
 * what was found and what is accepted, or undefined when it is fine.
 */
export function configTypeProblem(name: ConfigFileKindName, doc: unknown, domain: ApiDomain, opts: TypeCheck = {}): string | undefined {
  const entry: ConfigFileKind = CONFIG_FILE_KINDS[name];
  const d = (typeof doc === 'object' && doc !== null ? doc : {}) as { apiVersion?: unknown; kind?: unknown };
  if (opts.allowUntyped && (d.apiVersion === undefined || d.apiVersion === '')) return undefined;
  const okKind = typeof d.kind === 'string' && entry.kinds.includes(d.kind);
  if (okKind && isAcceptedApiVersion(name, d.apiVersion, domain)) return undefined;
  return `want kind ${entry.kinds.join(' or ')} of apiVersion ${acceptedApiVersions(name, domain).join(', ')}; got kind ${JSON.stringify(d.kind ?? '')} of apiVersion ${JSON.stringify(d.apiVersion ?? '')}`;
}

/** configTypeProblem as a thrown Error, prefixed by `what` (a file name, "kubeConfigFile x.yaml"). */
export function assertConfigType(name: ConfigFileKindName, doc: unknown, domain: ApiDomain, what: string, opts: TypeCheck = {}): void {
  const problem = configTypeProblem(name, doc, domain, opts);
  if (problem) throw new Error(what ? `${what}: ${problem}` : problem);
}

/**
 * A kubeconfig-format file's apiVersion and kind (webhook configurations of authentication,
 * authorization, audit and admission): v1 Config, or none. Its group is the core one, so no domain.
 */
export function assertKubeconfigType(doc: unknown, what: string): void {
  const d = (typeof doc === 'object' && doc !== null ? doc : {}) as { apiVersion?: unknown; kind?: unknown };
  if (d.apiVersion === undefined || d.apiVersion === '') return;
  const entry: ConfigFileKind = CONFIG_FILE_KINDS.Kubeconfig;
  if (entry.versions.includes(d.apiVersion as string) && (d.kind === undefined || d.kind === '' || entry.kinds.includes(d.kind as string)))
    return;
  throw new Error(
    `${what}: want kind Config of apiVersion ${entry.versions.join(', ')}; got kind ${JSON.stringify(d.kind ?? '')} of apiVersion ${JSON.stringify(d.apiVersion)}`,
  );
}
