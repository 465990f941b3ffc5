/**
 * The list fields of a container: ports, env, envFrom, volumeMounts and volumeDevices, as Kubernetes
 * validates them (validateContainerPorts, ValidateEnv, ValidateEnvFrom, ValidateVolumeMounts,
 * ValidateVolumeDevices).
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, forbidden, invalid, notFound, notSupported, required } from '../../../api/field-errors.js';
import { isConfigMapKey, nameIsDNSSubdomain } from '../../../api/validation/names.js';
import { validateLocalDescendingPath, validatePathNoBacksteps } from './paths.js';
import { ENV_FIELD_PATHS, validateObjectFieldSelector, validateResourceFieldSelector } from './downward-api.js';
import { isEnvVarName, isValidPortName, isValidPortNum } from './value-checks.js';
import type {
  ContainerPort,
  EnvFromSource,
  EnvVar,
  SecurityContext,
  Volume,
  VolumeDevice,
  VolumeMount,
} from '../../../api/generated/types.js';

/** Kubernetes' supported port protocols. */
const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** validateContainerPorts. */
export function validateContainerPorts(ports: ContainerPort[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (ports ?? []).forEach((port, i) => {
    const at = path.index(i);
    const name = port.name ?? '';
    if (name) {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) errs.push(...msgs.map((m) => invalid(at.child('name'), name, m)));
      else if (names.has(name)) errs.push(duplicate(at.child('name'), name));
      else names.add(name);
    }
    const containerPort = port.containerPort ?? 0;
    if (containerPort === 0) errs.push(required(at.child('containerPort')));
    else errs.push(...isValidPortNum(containerPort).map((m) => invalid(at.child('containerPort'), containerPort, m)));
    if (port.hostPort) errs.push(...isValidPortNum(port.hostPort).map((m) => invalid(at.child('hostPort'), port.hostPort, m)));
    if (!port.protocol) errs.push(required(at.child('protocol')));
    else if (!PORT_PROTOCOLS.includes(port.protocol)) errs.push(notSupported(at.child('protocol'), port.protocol, PORT_PROTOCOLS));
  });
  return errs;
}

/** A configMapKeyRef / secretKeyRef: a valid object name and a config-map key. */
function validateKeySelector(ref: { name?: string; key?: string }, path: FieldPath): FieldError[] {
  const errs = nameIsDNSSubdomain(ref.name ?? '', false).map((m) => invalid(path.child('name'), ref.name ?? '', m));
  if (!ref.key) errs.push(required(path.child('key')));
  else errs.push(...isConfigMapKey(ref.key).map((m) => invalid(path.child('key'), ref.key, m)));
  return errs;
}

function validateValueFrom(env: EnvVar, path: FieldPath): FieldError[] {
  const from = env.valueFrom;
  if (!from) return [];
  const errs: FieldError[] = [];
  let sources = 0;
  if (from.fieldRef) {
    sources++;
    errs.push(...validateObjectFieldSelector(from.fieldRef, ENV_FIELD_PATHS, path.child('fieldRef')));
  }
  if (from.resourceFieldRef) {
    sources++;
    errs.push(...validateResourceFieldSelector(from.resourceFieldRef, path.child('resourceFieldRef'), false));
  }
  if (from.configMapKeyRef) {
    sources++;
    errs.push(...validateKeySelector(from.configMapKeyRef, path.child('configMapKeyRef')));
  }
  if (from.secretKeyRef) {
    sources++;
    errs.push(...validateKeySelector(from.secretKeyRef, path.child('secretKeyRef')));
  }
  if (sources === 0)
    errs.push(invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (env.value) errs.push(invalid(path, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  return errs;
}

/** ValidateEnv. */
export function validateEnv(vars: EnvVar[] | undefined, path: FieldPath): FieldError[] {
  return (vars ?? []).flatMap((env, i) => {
    const at = path.index(i);
    const name = env.name ?? '';
    const errs = name ? isEnvVarName(name).map((m) => invalid(at.child('name'), name, m)) : [required(at.child('name'))];
    return [...errs, ...validateValueFrom(env, at.child('valueFrom'))];
  });
}

function validateEnvSourceName(ref: { name?: string }, path: FieldPath): FieldError[] {
  if (!ref.name) return [required(path.child('name'))];
  return nameIsDNSSubdomain(ref.name, true).map((m) => invalid(path.child('name'), ref.name, m));
}

/** ValidateEnvFrom. */
export function validateEnvFrom(sources: EnvFromSource[] | undefined, path: FieldPath): FieldError[] {
  return (sources ?? []).flatMap((source, i) => {
    const at = path.index(i);
    const errs: FieldError[] = [];
    if (source.prefix) errs.push(...isEnvVarName(source.prefix).map((m) => invalid(at.child('prefix'), source.prefix, m)));
    let count = 0;
    if (source.configMapRef) {
      count++;
      errs.push(...validateEnvSourceName(source.configMapRef, at.child('configMapRef')));
    }
    if (source.secretRef) {
      count++;
      errs.push(...validateEnvSourceName(source.secretRef, at.child('secretRef')));
    }
    if (count === 0) errs.push(invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
    return errs;
  });
}

const MOUNT_PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];

/** ValidateVolumeMounts: names reference volumes, unique mount paths, no clash with devices (paths kept as Kubernetes reports them). */
export function validateVolumeMounts(
  mounts: VolumeMount[] | undefined,
  devices: VolumeDevice[] | undefined,
  volumes: ReadonlyMap<string, Volume>,
  securityContext: SecurityContext | undefined,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const mountPaths = new Set<string>();
  const deviceNames = new Set((devices ?? []).map((d) => d.name ?? ''));
  const devicePaths = new Set((devices ?? []).map((d) => d.devicePath ?? ''));
  (mounts ?? []).forEach((mount, i) => {
    const at = path.index(i);
    const name = mount.name ?? '';
    const mountPath = mount.mountPath ?? '';
    if (!name) errs.push(required(at.child('name')));
    if (!volumes.has(name)) errs.push(notFound(at.child('name'), name));
    if (!mountPath) errs.push(required(at.child('mountPath')));
    if (mountPaths.has(mountPath)) errs.push(invalid(at.child('mountPath'), mountPath, 'must be unique'));
    mountPaths.add(mountPath);
    if (deviceNames.has(name)) errs.push(invalid(at.child('name'), name, 'must not already exist in volumeDevices'));
    if (devicePaths.has(mountPath))
      errs.push(invalid(at.child('mountPath'), mountPath, 'must not already exist as a path in volumeDevices'));
    if (mount.subPath) errs.push(...validateLocalDescendingPath(mount.subPath, path.child('subPath')));
    if (mount.subPathExpr) {
      if (mount.subPath) errs.push(invalid(at.child('subPathExpr'), mount.subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(mount.subPathExpr, path.child('subPathExpr')));
    }
    const propagation = mount.mountPropagation;
    if (propagation !== undefined) {
      if (!MOUNT_PROPAGATIONS.includes(propagation))
        errs.push(notSupported(path.child('mountPropagation'), propagation, MOUNT_PROPAGATIONS));
      if (propagation === 'Bidirectional' && securityContext?.privileged !== true) {
        errs.push(forbidden(path.child('mountPropagation'), 'Bidirectional mount propagation is available only to privileged containers'));
      }
    }
  });
  return errs;
}

/** ValidateVolumeDevices: unique names and paths of claim-backed volumes, no clash with mounts. */
export function validateVolumeDevices(
  devices: VolumeDevice[] | undefined,
  mounts: VolumeMount[] | undefined,
  volumes: ReadonlyMap<string, Volume>,
  claimVolumeNames: ReadonlySet<string>,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  const paths = new Set<string>();
  const mountNames = new Set((mounts ?? []).map((m) => m.name ?? ''));
  const mountPaths = new Set((mounts ?? []).map((m) => m.mountPath ?? ''));
  (devices ?? []).forEach((device, i) => {
    const at = path.index(i);
    const name = device.name ?? '';
    const devicePath = device.devicePath ?? '';
    const matched = volumes.has(name);
    const isClaim = claimVolumeNames.has(name);
    if (!name) errs.push(required(at.child('name')));
    if (names.has(name)) errs.push(invalid(at.child('name'), name, 'must be unique'));
    if (matched && !isClaim)
      errs.push(invalid(at.child('name'), name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    if (!matched) errs.push(notFound(at.child('name'), name));
    if (!devicePath) errs.push(required(at.child('devicePath')));
    if (paths.has(devicePath)) errs.push(invalid(at.child('devicePath'), devicePath, 'must be unique'));
    if (devicePath && validatePathNoBacksteps(devicePath, at).length > 0) {
      errs.push(invalid(at.child('devicePath'), devicePath, "can not contain backsteps ('..')"));
    } else paths.add(devicePath);
    if (mountNames.has(name)) errs.push(invalid(at.child('name'), name, 'must not already exist in volumeMounts'));
    if (mountPaths.has(devicePath))
      errs.push(invalid(at.child('devicePath'), devicePath, 'must not already exist as a path in volumeMounts'));
    if (name) names.add(name);
  });
  return errs;
}
