/**
 * Containers, init containers and ephemeral containers of a pod spec (validateContainers,
 * validateInitContainers, validateEphemeralContainers and the rules they share), with Kubernetes'
 * messages and paths.
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, forbidden, invalid, notFound, notSupported, required } from '../../../api/field-errors.js';
import { isDNS1123Label } from '../../../api/validation/names.js';
import { validateContainerPorts, validateEnv, validateEnvFrom, validateVolumeDevices, validateVolumeMounts } from './container-fields.js';
import { validateLifecycle, validateProbe } from './probes.js';
import { validateResourceRequirements, type ResourceNames } from './resources.js';
import { validateContainerSecurityContext } from './security-context.js';
import type { Container, EphemeralContainer, Volume } from '../../../api/generated/types.js';

/** What container validation needs to know about the pod spec. */
export interface ContainerContext {
  /** Valid volumes by name (mounts must reference one). */
  volumes: ReadonlyMap<string, Volume>;
  /** Names of the volumes backed by a claim (persistentVolumeClaim, ephemeral): block devices may use them. */
  claimVolumes: ReadonlySet<string>;
  names: ResourceNames;
}

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];

/** validateContainerCommon: the rules of every container type. */
function validateContainerCommon(c: Container, ctx: ContainerContext, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = c.name ?? '';
  if (!name) errs.push(required(path.child('name')));
  else errs.push(...isDNS1123Label(name).map((m) => invalid(path.child('name'), name, m)));
  if (!c.image) errs.push(required(path.child('image')));
  const tmp = c.terminationMessagePolicy ?? '';
  if (!tmp) errs.push(required(path.child('terminationMessagePolicy')));
  else if (!TERMINATION_MESSAGE_POLICIES.includes(tmp))
    errs.push(notSupported(path.child('terminationMessagePolicy'), tmp, TERMINATION_MESSAGE_POLICIES));
  errs.push(...validateContainerPorts(c.ports, path.child('ports')));
  errs.push(...validateEnv(c.env, path.child('env')));
  errs.push(...validateEnvFrom(c.envFrom, path.child('envFrom')));
  errs.push(...validateVolumeMounts(c.volumeMounts, c.volumeDevices, ctx.volumes, c.securityContext, path.child('volumeMounts')));
  errs.push(...validateVolumeDevices(c.volumeDevices, c.volumeMounts, ctx.volumes, ctx.claimVolumes, path.child('volumeDevices')));
  const pull = c.imagePullPolicy ?? '';
  if (!pull) errs.push(required(path.child('imagePullPolicy')));
  else if (!PULL_POLICIES.includes(pull)) errs.push(notSupported(path.child('imagePullPolicy'), pull, PULL_POLICIES));
  errs.push(...validateResourceRequirements(c.resources, ctx.names, path.child('resources')));
  errs.push(...validateContainerSecurityContext(c.securityContext, path.child('securityContext')));
  return errs;
}

/** Probes and lifecycle hooks, allowed on regular containers. */
function validateProbesAndLifecycle(c: Container, path: FieldPath): FieldError[] {
  return [
    ...(c.lifecycle ? validateLifecycle(c.lifecycle, path.child('lifecycle')) : []),
    ...validateProbe(c.livenessProbe, 'livenessProbe', path.child('livenessProbe')),
    ...validateProbe(c.readinessProbe, 'readinessProbe', path.child('readinessProbe')),
    ...validateProbe(c.startupProbe, 'startupProbe', path.child('startupProbe')),
  ];
}

/** AccumulateUniqueHostPorts: no two ports share protocol, host IP and host port. */
function checkHostPortConflicts(containers: Container[], path: FieldPath): FieldError[] {
  const seen = new Set<string>();
  const errs: FieldError[] = [];
  containers.forEach((c, ci) => {
    (c.ports ?? []).forEach((p, pi) => {
      if (!p.hostPort) return;
      const key = `${p.protocol ?? ''}/${p.hostIP ?? ''}/${p.hostPort}`;
      if (seen.has(key)) errs.push(duplicate(path.index(ci).child('ports').index(pi).child('hostPort'), key));
      else seen.add(key);
    });
  });
  return errs;
}

/** validateContainers: at least one, unique names, common rules, probes, no restartPolicy. */
export function validateContainers(containers: Container[] | undefined, ctx: ContainerContext, path: FieldPath): FieldError[] {
  if (!containers || containers.length === 0) return [required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const at = path.index(i);
    errs.push(...validateContainerCommon(c, ctx, at));
    if (names.has(c.name ?? '')) errs.push(duplicate(at.child('name'), c.name ?? ''));
    else names.add(c.name ?? '');
    errs.push(...validateProbesAndLifecycle(c, at));
    if (c.restartPolicy !== undefined) errs.push(forbidden(at.child('restartPolicy'), 'may not be set for non-init containers'));
  });
  errs.push(...checkHostPortConflicts(containers, path));
  return errs;
}

const INIT_CONTAINER_FORBIDDEN = ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const;

/**
 * validateInitContainers: names unique among all containers; no probes or lifecycle hooks (sidecar
 * init containers are alpha in 1.28: their restartPolicy is dropped before validation).
 */
export function validateInitContainers(
  inits: Container[] | undefined,
  regular: Container[] | undefined,
  ctx: ContainerContext,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set((regular ?? []).map((c) => c.name ?? ''));
  (inits ?? []).forEach((c, i) => {
    const at = path.index(i);
    errs.push(...validateContainerCommon(c, ctx, at));
    const name = c.name ?? '';
    if (names.has(name)) errs.push(duplicate(at.child('name'), name));
    else if (name) names.add(name);
    errs.push(...checkHostPortConflicts([c], path));
    for (const field of INIT_CONTAINER_FORBIDDEN) {
      if (c[field] !== undefined) errs.push(forbidden(at.child(field), 'may not be set for init containers without restartPolicy=Always'));
    }
  });
  return errs;
}

/** Container fields an ephemeral container may set (allowedEphemeralContainerFields), in Go's field order. */
const EPHEMERAL_FIELDS: readonly [string, boolean][] = [
  ['name', true],
  ['image', true],
  ['command', true],
  ['args', true],
  ['workingDir', true],
  ['ports', false],
  ['envFrom', true],
  ['env', true],
  ['resources', false],
  ['resizePolicy', false],
  ['restartPolicy', false],
  ['volumeMounts', true],
  ['volumeDevices', true],
  ['livenessProbe', false],
  ['readinessProbe', false],
  ['startupProbe', false],
  ['lifecycle', false],
  ['terminationMessagePath', true],
  ['terminationMessagePolicy', true],
  ['imagePullPolicy', true],
  ['securityContext', true],
  ['stdin', true],
  ['stdinOnce', true],
  ['tty', true],
];

/** validateContainerOnlyForPod: a pod's (not a template's) images have no surrounding whitespace. */
export function validateImageWhitespace(c: Container, path: FieldPath): FieldError[] {
  const image = c.image ?? '';
  return image !== image.trim() ? [invalid(path.child('image'), image, 'must not have leading or trailing whitespace')] : [];
}

const isSet = (v: unknown): boolean =>
  v !== undefined &&
  v !== '' &&
  v !== false &&
  !(Array.isArray(v) && v.length === 0) &&
  !(typeof v === 'object' && v !== null && Object.keys(v).length === 0);

/** validateEphemeralContainers: names unique among all containers, targets exist, restricted fields. */
export function validateEphemeralContainers(
  ephemeral: EphemeralContainer[] | undefined,
  regular: Container[] | undefined,
  inits: Container[] | undefined,
  ctx: ContainerContext,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const others = new Set([...(regular ?? []), ...(inits ?? [])].map((c) => c.name ?? ''));
  const all = new Set(others);
  (ephemeral ?? []).forEach((c, i) => {
    const at = path.index(i);
    errs.push(...validateContainerCommon(c, ctx, at));
    errs.push(...validateImageWhitespace(c, at));
    const name = c.name ?? '';
    if (all.has(name)) errs.push(duplicate(at.child('name'), name));
    else all.add(name);
    if (c.targetContainerName && !others.has(c.targetContainerName))
      errs.push(notFound(at.child('targetContainerName'), c.targetContainerName));
    const fields = new Map(Object.entries(c));
    for (const [field, allowed] of EPHEMERAL_FIELDS) {
      if (!allowed && isSet(fields.get(field))) errs.push(forbidden(at.child(field), 'cannot be set for an Ephemeral Container'));
    }
    (c.volumeMounts ?? []).forEach((m, j) => {
      if (m.subPath) errs.push(forbidden(at.child('volumeMounts').index(j).child('subPath'), 'cannot be set for an Ephemeral Container'));
      if (m.subPathExpr)
        errs.push(forbidden(at.child('volumeMounts').index(j).child('subPathExpr'), 'cannot be set for an Ephemeral Container'));
    });
  });
  return errs;
}
