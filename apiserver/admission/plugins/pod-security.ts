/**
 * PodSecurity: the Pod Security Standards by namespace labels `pod-security.<prefix>/enforce|audit|warn`
 * (levels privileged, baseline, restricted) and their `-version` labels (latest or v1.N; orch checks
 * every version with 1.28's rules). A pod that violates its namespace's enforce level is refused (403,
 * `violates PodSecurity "restricted:latest": …`); one that violates the warn level (which follows the
 * enforce level when unset) gets a `would violate PodSecurity …` warning, as do workloads (Deployment,
 * ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, ReplicationController, PodTemplate) for their pod
 * template, which are never refused. Labels that are not a level or version are refused (422); a label
 * change that makes the enforce level stricter warns which existing pods would violate it. The
 * configuration (PodSecurityConfiguration) gives the cluster defaults and the exempt usernames,
 * runtime classes and namespaces. The audit mode annotates the request's audit event
 * (`pod-security.<prefix>/audit-violations`), and the enforced policy is recorded beside it
 * (`pod-security.<prefix>/enforce-policy`), as Kubernetes does.
 */
import { type ApiObject, asKind, jsonEqual, type KindObject } from '../../api/object.js';
import type { ObjectMeta } from '../../api/object-meta.js';
import { assertConfigType } from '../../api/config-versions.js';
import type { ApiDomain } from '../../api/domain.js';
import * as status from '../../api/status.js';
import { type FieldError, invalid as invalidField } from '../../api/field-errors.js';
import { admissionForbidden } from '../errors.js';
import type { AdmissionAttributes, AdmissionPlugin, PluginFactory } from '../interfaces.js';
import type { PodSpec } from '../pods.js';
import { describe, evaluate, type Level } from '../podsecurity/checks.js';
import { isResource, NAMESPACES, PODS } from '../resources.js';

const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];
const STRICTNESS: Record<Level, number> = { privileged: 0, baseline: 1, restricted: 2 };
const MODES = ['enforce', 'audit', 'warn'] as const;
type Mode = (typeof MODES)[number];

interface Policy {
  level: Level;
  version: string;
}

interface Config {
  defaults: Record<Mode, Policy>;
  exemptUsers: Set<string>;
  exemptRuntimeClasses: Set<string>;
  exemptNamespaces: Set<string>;
}

function isLevel(v: string | undefined): v is Level {
  return LEVELS.some((l) => l === v);
}

function isVersion(v: string): boolean {
  return v === 'latest' || /^v1\.(0|[1-9][0-9]*)$/.test(v);
}

function readConfig(config: unknown, domain: ApiDomain): Config {
  if (config !== undefined && config !== null) assertConfigType('PodSecurity', config, domain, '', { allowUntyped: true });
  const c = (config ?? {}) as {
    defaults?: Record<string, string>;
    exemptions?: { usernames?: string[]; runtimeClasses?: string[]; namespaces?: string[] };
  };
  const policyOf = (mode: Mode): Policy => {
    const level = c.defaults?.[mode] ?? 'privileged';
    const version = c.defaults?.[`${mode}-version`] ?? 'latest';
    if (!isLevel(level)) throw new Error(`defaults.${mode}: ${JSON.stringify(level)} must be one of ${LEVELS.join(', ')}`);
    if (!isVersion(version)) throw new Error(`defaults.${mode}-version: ${JSON.stringify(version)} must be "latest" or "v1.<minor>"`);
    return { level, version };
  };
  return {
    defaults: { enforce: policyOf('enforce'), audit: policyOf('audit'), warn: policyOf('warn') },
    exemptUsers: new Set(c.exemptions?.usernames ?? []),
    exemptRuntimeClasses: new Set(c.exemptions?.runtimeClasses ?? []),
    exemptNamespaces: new Set(c.exemptions?.namespaces ?? []),
  };
}

/** A pod template as the checks read it (the admission layer's loose PodSpec). */
interface PodTemplate {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}
/** The kinds whose pods PodSecurity checks, by where they keep their pod template. */
type PodKind = KindObject & { spec?: PodSpec };
type TemplateKind = KindObject & { spec?: { template?: PodTemplate } };
type CronJobKind = KindObject & { spec?: { jobTemplate?: { spec?: { template?: PodTemplate } } } };
type PodTemplateKind = KindObject & { template?: PodTemplate };

/** A workload's template; the object is of the workload's resource (the plugin matched it). */
const templateOf = (o: ApiObject) => asKind<TemplateKind>(o).spec?.template;

const WORKLOADS: {
  group: string;
  resource: string;
  template: (o: ApiObject) => PodTemplate | undefined;
}[] = [
  ...['deployments', 'replicasets', 'statefulsets', 'daemonsets'].map((resource) => ({ group: 'apps', resource, template: templateOf })),
  { group: 'batch', resource: 'jobs', template: templateOf },
  { group: 'batch', resource: 'cronjobs', template: (o) => asKind<CronJobKind>(o).spec?.jobTemplate?.spec?.template },
  { group: '', resource: 'replicationcontrollers', template: templateOf },
  { group: '', resource: 'podtemplates', template: (o) => asKind<PodTemplateKind>(o).template },
];

const text = (p: Policy) => `${p.level}:${p.version}`;

/** A spec with its images blanked: updates that only change images or metadata are not re-evaluated. */
function significant(spec: PodSpec | undefined): unknown {
  if (!spec) return spec;
  const blank = (cs: { image?: string }[] | undefined) => cs?.map((c) => ({ ...c, image: '' }));
  return {
    ...spec,
    containers: blank(spec.containers),
    initContainers: blank(spec.initContainers),
    ephemeralContainers: blank(spec.ephemeralContainers),
  };
}

export const newPodSecurity: PluginFactory = ({ domain, reader }, rawConfig): AdmissionPlugin => {
  const config = readConfig(rawConfig, domain);
  const label = (mode: Mode, suffix = '') => `pod-security.${domain.labelPrefix}/${mode}${suffix}`;

  /** The namespace's policy per mode, or the field errors of its labels. */
  const policyOf = (labels: Record<string, string>): { policy: Record<Mode, Policy>; errors: FieldError[] } => {
    const errors: FieldError[] = [];
    const policyFor = (mode: Mode): Policy => {
      const level = labels[label(mode)];
      const version = labels[label(mode, '-version')];
      if (level !== undefined && !isLevel(level)) {
        errors.push(invalidField(`metadata.labels[${label(mode)}]`, level, `must be one of ${LEVELS.join(', ')}`));
      }
      if (version !== undefined && !isVersion(version)) {
        errors.push(invalidField(`metadata.labels[${label(mode, '-version')}]`, version, 'must be "latest" or "v1.x"'));
      }
      return {
        level: isLevel(level) ? level : config.defaults[mode].level,
        version: version !== undefined && isVersion(version) ? version : config.defaults[mode].version,
      };
    };
    const policy: Record<Mode, Policy> = { enforce: policyFor('enforce'), audit: policyFor('audit'), warn: policyFor('warn') };
    // An unset warn level follows the enforce level when that one is stricter.
    if (labels[label('warn')] === undefined && STRICTNESS[policy.enforce.level] > STRICTNESS[policy.warn.level])
      policy.warn = policy.enforce;
    return { policy, errors };
  };

  const namespacePolicy = async (a: AdmissionAttributes) => {
    const ns = await reader.get(NAMESPACES, '', a.namespace);
    return policyOf(ns?.metadata.labels ?? {}).policy;
  };

  const exempt = (a: AdmissionAttributes, spec: PodSpec | undefined) =>
    config.exemptNamespaces.has(a.namespace) ||
    config.exemptUsers.has(a.user.name) ||
    (spec?.runtimeClassName !== undefined && config.exemptRuntimeClasses.has(spec.runtimeClassName));

  const validateNamespace = async (a: AdmissionAttributes) => {
    const ns = a.object!;
    const { policy, errors } = policyOf(ns.metadata.labels ?? {});
    if (errors.length) throw status.invalid({ group: '', kind: 'Namespace' }, ns.metadata.name ?? a.name, errors);
    if (a.operation !== 'UPDATE' || config.exemptNamespaces.has(a.name)) return;
    const before = policyOf(a.oldObject?.metadata.labels ?? {}).policy.enforce;
    if (STRICTNESS[policy.enforce.level] <= STRICTNESS[before.level] && policy.enforce.version === before.version) return;
    if (policy.enforce.level === 'privileged') return;
    const pods = await reader.list(PODS, a.name);
    const violating: string[] = [];
    for (const pod of pods) {
      const spec = asKind<PodKind>(pod).spec;
      if (!spec || (spec.runtimeClassName && config.exemptRuntimeClasses.has(spec.runtimeClassName))) continue;
      const v = evaluate(policy.enforce.level, pod.metadata, spec, domain.labelPrefix);
      if (v.length) violating.push(`${pod.metadata.name}: ${v.map((x) => x.reason).join(', ')}`);
    }
    if (violating.length) {
      a.warnings.push(
        `existing pods in namespace ${JSON.stringify(a.name)} violate the new PodSecurity enforce level ${JSON.stringify(text(policy.enforce))}`,
      );
      a.warnings.push(...violating);
    }
  };

  return {
    name: 'PodSecurity',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    handlesResource: (r) => isResource(r, NAMESPACES) || isResource(r, PODS) || WORKLOADS.some((w) => isResource(r, w)),
    async validate(a) {
      // The resource first: a validator's object is copied when first read.
      const checked =
        isResource(a.resource, NAMESPACES) || isResource(a.resource, PODS) || WORKLOADS.some((w) => isResource(a.resource, w));
      if (!checked || !a.object) return;
      if (isResource(a.resource, NAMESPACES)) {
        if (!a.subresource) await validateNamespace(a);
        return;
      }
      if (isResource(a.resource, PODS)) {
        if (a.subresource !== '' && a.subresource !== 'ephemeralcontainers') return;
        const pod = asKind<PodKind>(a.object);
        const old = a.oldObject && asKind<PodKind>(a.oldObject);
        if (a.operation === 'UPDATE' && old && jsonEqual(significant(pod.spec), significant(old.spec))) return;
        if (!pod.spec || exempt(a, pod.spec)) return;
        const policy = await namespacePolicy(a);
        if (a.auditAnnotations) {
          a.auditAnnotations[`pod-security.${domain.labelPrefix}/enforce-policy`] = text(policy.enforce);
          const audited = evaluate(policy.audit.level, pod.metadata, pod.spec, domain.labelPrefix);
          if (audited.length) {
            a.auditAnnotations[`pod-security.${domain.labelPrefix}/audit-violations`] =
              `would violate PodSecurity ${JSON.stringify(text(policy.audit))}: ${describe(audited)}`;
          }
        }
        const enforced = evaluate(policy.enforce.level, pod.metadata, pod.spec, domain.labelPrefix);
        if (enforced.length)
          throw admissionForbidden(a, `violates PodSecurity ${JSON.stringify(text(policy.enforce))}: ${describe(enforced)}`);
        const warned = evaluate(policy.warn.level, pod.metadata, pod.spec, domain.labelPrefix);
        if (warned.length) a.warnings.push(`would violate PodSecurity ${JSON.stringify(text(policy.warn))}: ${describe(warned)}`);
        return;
      }
      const workload = WORKLOADS.find((w) => isResource(a.resource, w));
      if (!workload || a.subresource) return;
      const template = workload.template(a.object);
      const oldTemplate = a.oldObject && workload.template(a.oldObject);
      if (!template?.spec || exempt(a, template.spec)) return;
      if (a.operation === 'UPDATE' && oldTemplate && jsonEqual(significant(template.spec), significant(oldTemplate.spec))) return;
      const policy = await namespacePolicy(a);
      const warned = evaluate(policy.warn.level, template.metadata ?? {}, template.spec, domain.labelPrefix);
      if (warned.length) a.warnings.push(`would violate PodSecurity ${JSON.stringify(text(policy.warn))}: ${describe(warned)}`);
    },
  };
};
