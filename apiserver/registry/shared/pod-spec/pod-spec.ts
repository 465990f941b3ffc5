/**
 * ValidatePodSpec and ValidatePodTemplateSpec: the whole pod spec as Kubernetes 1.28 validates it,
 * for Pods and for every pod template (ReplicaSets, Deployments, StatefulSets, DaemonSets, Jobs,
 * CronJobs).
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, forbidden, invalid, notSupported, required } from '../../../api/field-errors.js';
import type { ApiDomain } from '../../../api/domain.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain } from '../../../api/validation/names.js';
import { validateAnnotations, validateLabels } from '../../../api/validation/object-meta.js';
import { validateContainers, validateEphemeralContainers, validateInitContainers } from './containers.js';
import { ResourceNames, validateResourceRequirements } from './resources.js';
import { validateAffinity, validateTolerations, validateTopologySpreadConstraints } from './scheduling.js';
import { validateOS, validatePodSecurityContext } from './security-context.js';
import { inclusiveRangeError, isValidIP } from './value-checks.js';
import { validateVolumes } from './volumes.js';
import type { PodSpec, PodTemplateSpec, Volume } from '../../../api/generated/types.js';

/** How a pod spec is validated. */
export interface PodSpecOptions {
  domain: ApiDomain;
  /** The spec is a Pod's (not a template's): host ports must equal container ports under hostNetwork. */
  isPod?: boolean;
  /** The Pod's name, for the claims its ephemeral volumes create. */
  podName?: string;
  /** Volumes that exist besides spec.volumes (a StatefulSet's claim templates), all claim-backed. */
  claimTemplateNames?: readonly string[];
}

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];
const MAX_INT32 = 2147483647;

/** An enumerated field: required when empty, one of `values` otherwise. */
function validateEnum(value: string | undefined, values: readonly string[], path: FieldPath): FieldError[] {
  if (!value) return [required(path)];
  return values.includes(value) ? [] : [notSupported(path, value, values)];
}

function validateDNSConfig(spec: PodSpec, path: FieldPath): FieldError[] {
  const config = spec.dnsConfig;
  if (spec.dnsPolicy === 'None') {
    if (!config) return [required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if ((config.nameservers ?? []).length === 0)
      return [required(path.child('nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!config) return [];
  const errs: FieldError[] = [];
  const nameservers = config.nameservers ?? [];
  if (nameservers.length > 3) errs.push(invalid(path.child('nameservers'), nameservers, 'must not have more than 3 nameservers'));
  nameservers.forEach((ns, i) => errs.push(...isValidIP(ns).map((m) => invalid(path.child('nameservers').index(i), ns, m))));
  const searches = config.searches ?? [];
  if (searches.length > 32) errs.push(invalid(path.child('searches'), searches, 'must not have more than 32 search paths'));
  if (searches.join(' ').length > 2048)
    errs.push(invalid(path.child('searches'), searches, 'must not have more than 2048 characters (including spaces) in the search list'));
  searches.forEach((s, i) => {
    const search = s.endsWith('.') ? s.slice(0, -1) : s;
    errs.push(...isDNS1123Subdomain(search).map((m) => invalid(path.child('searches').index(i), search, m)));
  });
  (config.options ?? []).forEach((o, i) => {
    if (!o.name) errs.push(required(path.child('options').index(i), 'must not be empty'));
  });
  return errs;
}

/** validatePodHostNetworkDeps: under hostNetwork, host ports equal container ports (pods) or are unset (templates). */
function validateHostNetworkPorts(spec: PodSpec, isPod: boolean, path: FieldPath): FieldError[] {
  if (!spec.hostNetwork) return [];
  return (spec.containers ?? []).flatMap((c, i) =>
    (c.ports ?? []).flatMap((p, j) => {
      const hostPort = p.hostPort ?? 0;
      const bad = (isPod || hostPort !== 0) && hostPort !== (p.containerPort ?? 0);
      return bad
        ? [
            invalid(
              path.child('containers').index(i).child('ports').index(j).child('hostPort'),
              hostPort,
              'must match `containerPort` when `hostNetwork` is true',
            ),
          ]
        : [];
    }),
  );
}

/** A name field checked with a name rule, when set. */
function validateOptionalName(
  value: string | undefined,
  check: (name: string, prefix: boolean) => string[],
  path: FieldPath,
): FieldError[] {
  return value ? check(value, false).map((m) => invalid(path, value, m)) : [];
}

function validateSchedulingGates(spec: PodSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (spec.schedulingGates ?? []).forEach((g, i) => {
    const name = g.name ?? '';
    errs.push(...isQualifiedName(name).map((m) => invalid(path.index(i), name, m)));
    if (seen.has(name)) errs.push(duplicate(path.index(i), name));
    seen.add(name);
  });
  return errs;
}

/** The volumes mounts may reference, and which of them are backed by claims. */
function volumeContext(volumes: Map<string, Volume>, claimTemplateNames: readonly string[]) {
  const all = new Map(volumes);
  const claims = new Set<string>();
  for (const [name, v] of volumes) if (v.persistentVolumeClaim || v.ephemeral) claims.add(name);
  for (const name of claimTemplateNames) {
    if (!all.has(name)) all.set(name, { name, persistentVolumeClaim: { claimName: name } });
    claims.add(name);
  }
  return { volumes: all, claimVolumes: claims };
}

/** ValidatePodSpec. */
export function validatePodSpec(spec: PodSpec, path: FieldPath, opts: PodSpecOptions): FieldError[] {
  const errs: FieldError[] = [];
  const names = new ResourceNames(opts.domain.labelPrefix);
  if (spec.terminationGracePeriodSeconds === undefined) errs.push(required(path.child('terminationGracePeriodSeconds')));
  const vols = validateVolumes(spec.volumes, path.child('volumes'), opts.podName);
  errs.push(...vols.errors);
  const ctx = { ...volumeContext(vols.volumes, opts.claimTemplateNames ?? []), names };
  errs.push(...validateContainers(spec.containers, ctx, path.child('containers')));
  errs.push(...validateInitContainers(spec.initContainers, spec.containers, ctx, path.child('initContainers')));
  errs.push(
    ...validateEphemeralContainers(spec.ephemeralContainers, spec.containers, spec.initContainers, ctx, path.child('ephemeralContainers')),
  );
  errs.push(...validateHostNetworkPorts(spec, opts.isPod ?? false, path));
  errs.push(...validateEnum(spec.restartPolicy, RESTART_POLICIES, path.child('restartPolicy')));
  errs.push(...validateEnum(spec.dnsPolicy, DNS_POLICIES, path.child('dnsPolicy')));
  errs.push(...validateLabels(spec.nodeSelector, path.child('nodeSelector')));
  errs.push(...validatePodSecurityContext(spec, path.child('securityContext')));
  errs.push(...validateAffinity(spec.affinity, path.child('affinity')));
  errs.push(...validateDNSConfig(spec, path.child('dnsConfig')));
  (spec.readinessGates ?? []).forEach((g, i) => {
    const at = path.child('readinessGates').index(i).child('conditionType');
    errs.push(...isQualifiedName(g.conditionType ?? '').map((m) => invalid(at, g.conditionType ?? '', m)));
  });
  errs.push(...validateSchedulingGates(spec, path.child('schedulingGates')));
  errs.push(...validateTopologySpreadConstraints(spec.topologySpreadConstraints, path.child('topologySpreadConstraints')));
  errs.push(...validateOptionalName(spec.serviceAccountName, nameIsDNSSubdomain, path.child('serviceAccountName')));
  errs.push(...validateOptionalName(spec.nodeName, nameIsDNSSubdomain, path.child('nodeName')));
  const deadline = spec.activeDeadlineSeconds;
  if (deadline !== undefined && (deadline < 1 || deadline > MAX_INT32))
    errs.push(invalid(path.child('activeDeadlineSeconds'), deadline, inclusiveRangeError(1, MAX_INT32)));
  if (spec.hostname) errs.push(...isDNS1123Label(spec.hostname).map((m) => invalid(path.child('hostname'), spec.hostname, m)));
  if (spec.subdomain) errs.push(...isDNS1123Label(spec.subdomain).map((m) => invalid(path.child('subdomain'), spec.subdomain, m)));
  errs.push(...validateTolerations(spec.tolerations, path.child('tolerations')));
  (spec.hostAliases ?? []).forEach((alias, i) => {
    const at = path.child('hostAliases').index(i);
    errs.push(...isValidIP(alias.ip ?? '').map((m) => invalid(at.child('ip'), alias.ip ?? '', m)));
    (alias.hostnames ?? []).forEach((h, j) =>
      errs.push(...isDNS1123Subdomain(h).map((m) => invalid(at.child('hostnames').index(j), h, m))),
    );
  });
  errs.push(...validateOptionalName(spec.priorityClassName, nameIsDNSSubdomain, path.child('priorityClassName')));
  if (spec.runtimeClassName !== undefined) {
    errs.push(
      ...nameIsDNSSubdomain(spec.runtimeClassName, false).map((m) => invalid(path.child('runtimeClassName'), spec.runtimeClassName, m)),
    );
  }
  if (spec.preemptionPolicy !== undefined)
    errs.push(...validateEnum(spec.preemptionPolicy, PREEMPTION_POLICIES, path.child('preemptionPolicy')));
  if (spec.overhead) errs.push(...validateResourceRequirements({ limits: spec.overhead }, names, path.child('overhead')));
  errs.push(...validateOS(spec, path));
  return errs;
}

/**
 * ValidatePodSpecificAnnotations (the parts that still apply): a mirror pod needs spec.nodeName, and
 * the pod-deletion-cost annotation is a 32-bit integer. Keys use the domain's prefix.
 */
export function validatePodSpecificAnnotations(
  annotations: Record<string, string> | undefined,
  spec: PodSpec,
  domain: ApiDomain,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const mirror = `${domain.labelPrefix}/config.mirror`;
  if (annotations && Object.hasOwn(annotations, mirror) && !spec.nodeName) {
    errs.push(invalid(path.key(mirror), annotations[mirror], 'must set spec.nodeName if mirror pod annotation is set'));
  }
  const costKey = `controller.${domain.labelPrefix}/pod-deletion-cost`;
  const cost = annotations?.[costKey];
  if (cost !== undefined) {
    const n = /^-?\d+$/.test(cost) ? Number(cost) : NaN;
    if (!Number.isInteger(n) || n < -(2 ** 31) || n > MAX_INT32) errs.push(invalid(path.key(costKey), cost, 'must be a 32bit integer'));
  }
  return errs;
}

/** ValidatePodTemplateSpec: template labels and annotations, the pod spec, no ephemeral containers. */
export function validatePodTemplateSpec(template: PodTemplateSpec | undefined, path: FieldPath, opts: PodSpecOptions): FieldError[] {
  const meta = template?.metadata ?? {};
  const spec = template?.spec ?? ({} as PodSpec); // an absent spec is validated as an empty one
  const errs = validateLabels(meta.labels, path.child('labels'));
  errs.push(...validateAnnotations(meta.annotations, path.child('annotations')));
  errs.push(...validatePodSpecificAnnotations(meta.annotations, spec, opts.domain, path.child('annotations')));
  errs.push(...validatePodSpec(spec, path.child('spec'), opts));
  if ((spec.ephemeralContainers ?? []).length > 0)
    errs.push(forbidden(path.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  return errs;
}
