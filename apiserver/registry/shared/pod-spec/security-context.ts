/**
 * Pod and container security contexts (validatePodSpecSecurityContext, ValidateSecurityContext) and the
 * OS-specific restrictions of spec.os, with Kubernetes' messages.
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, forbidden, invalid, notSupported, required } from '../../../api/field-errors.js';
import { isDNS1123Subdomain } from '../../../api/validation/names.js';
import { validateLocalDescendingPath } from './paths.js';
import { isValidId } from './value-checks.js';
import type {
  Container,
  PodSpec,
  SeccompProfile,
  SecurityContext,
  WindowsSecurityContextOptions as WindowsOptions,
} from '../../../api/generated/types.js';

const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

/** validateSeccompProfileField. */
function validateSeccompProfile(profile: SeccompProfile | undefined, path: FieldPath): FieldError[] {
  if (!profile) return [];
  const errs: FieldError[] = [];
  if (!profile.type) errs.push(required(path.child('type'), 'type is required when seccompProfile is set'));
  else if (!SECCOMP_TYPES.includes(profile.type)) errs.push(notSupported(path.child('type'), profile.type, SECCOMP_TYPES));
  if (profile.type === 'Localhost') {
    if (profile.localhostProfile === undefined)
      errs.push(required(path.child('localhostProfile'), 'must be set when seccomp type is Localhost'));
    else errs.push(...validateLocalDescendingPath(profile.localhostProfile, path.child('localhostProfile')));
  } else if (profile.localhostProfile !== undefined) {
    errs.push(invalid(path.child('localhostProfile'), profile, 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

function validateIds(ids: Record<string, number | undefined>, path: FieldPath): FieldError[] {
  return Object.entries(ids).flatMap(([field, id]) =>
    id === undefined ? [] : isValidId(id).map((m) => invalid(path.child(field), id, m)),
  );
}

const GMSA_SPEC_MAX = 64 * 1024;
const USER_NAME_INVALID_CHARS = /["/\\:;|=,+*?<>@[\]]/;
const NETBIOS_DOMAIN = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/;
const DNS_DOMAIN = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** validateWindowsSecurityContextOptions. */
function validateWindowsOptions(opts: WindowsOptions | undefined, path: FieldPath): FieldError[] {
  if (!opts) return [];
  const errs: FieldError[] = [];
  if (opts.gmsaCredentialSpecName !== undefined) {
    errs.push(
      ...isDNS1123Subdomain(opts.gmsaCredentialSpecName).map((m) =>
        invalid(path.child('gmsaCredentialSpecName'), opts.gmsaCredentialSpecName, m),
      ),
    );
  }
  const spec = opts.gmsaCredentialSpec;
  if (spec !== undefined && spec.length === 0)
    errs.push(invalid(path.child('gmsaCredentialSpec'), spec, 'gmsaCredentialSpec cannot be an empty string'));
  if (spec !== undefined && spec.length > GMSA_SPEC_MAX)
    errs.push(invalid(path.child('gmsaCredentialSpec'), spec, 'gmsaCredentialSpec size must be under 64 KiB'));
  const user = opts.runAsUserName;
  if (user === undefined) return errs;
  const at = path.child('runAsUserName');
  const parts = user.split('\\');
  if (user.length === 0) errs.push(invalid(at, user, 'runAsUserName cannot be an empty string'));
  else if (/[\x00-\x1f\x7f]/.test(user)) errs.push(invalid(at, user, 'runAsUserName cannot contain control characters'));
  else if (parts.length > 2) errs.push(invalid(at, user, 'runAsUserName cannot contain more than one backslash'));
  else {
    const [domain, name] = parts.length === 2 ? parts : ['', parts[0]];
    if (domain.length >= 256) errs.push(invalid(at, user, "runAsUserName's Domain length must be under 256 characters"));
    if (parts.length === 2 && !NETBIOS_DOMAIN.test(domain) && !DNS_DOMAIN.test(domain)) {
      errs.push(invalid(at, user, "runAsUserName's Domain doesn't match the NetBios nor the DNS format"));
    }
    if (name.length === 0) errs.push(invalid(at, user, "runAsUserName's User cannot be empty"));
    else if (name.length > 104) errs.push(invalid(at, user, "runAsUserName's User length must not be longer than 104 characters"));
    if (/^[. ]+$/.test(name)) errs.push(invalid(at, user, "runAsUserName's User cannot contain only periods or spaces"));
    if (USER_NAME_INVALID_CHARS.test(name))
      errs.push(invalid(at, user, `runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`));
  }
  return errs;
}

/** ValidateSecurityContext (container level). Privileged containers are allowed (--allow-privileged=true). */
export function validateContainerSecurityContext(sc: SecurityContext | undefined, path: FieldPath): FieldError[] {
  if (!sc) return [];
  const errs = validateIds({ runAsUser: sc.runAsUser, runAsGroup: sc.runAsGroup }, path);
  errs.push(...validateSeccompProfile(sc.seccompProfile, path.child('seccompProfile')));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) errs.push(invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    for (const cap of sc.capabilities?.add ?? []) {
      if (cap === 'CAP_SYS_ADMIN')
        errs.push(invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  errs.push(...validateWindowsOptions(sc.windowsOptions, path.child('windowsOptions')));
  return errs;
}

const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_RE = new RegExp(`^(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}$`);
const SYSCTL_MAX = 253;

/** The namespace of a namespaced sysctl (utilsysctl.GetNamespace): net, ipc or none. */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  const n = name.replaceAll('/', '.');
  if (n.startsWith('net.')) return 'net';
  if (
    [
      'kernel.shmmax',
      'kernel.shmall',
      'kernel.shmmni',
      'kernel.shm_rmid_forced',
      'kernel.msgmax',
      'kernel.msgmnb',
      'kernel.msgmni',
      'kernel.sem',
    ].includes(n)
  ) {
    return 'ipc';
  }
  return n.startsWith('fs.mqueue.') ? 'ipc' : undefined;
}

function validateSysctls(spec: PodSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (spec.securityContext?.sysctls ?? []).forEach((s, i) => {
    const at = path.index(i).child('name');
    const name = s.name ?? '';
    if (!name) errs.push(required(at));
    else if (name.length > SYSCTL_MAX || !SYSCTL_RE.test(name)) {
      errs.push(invalid(at, name, `must have at most ${SYSCTL_MAX} characters and match regex ${SYSCTL_RE.source}`));
    } else if (seen.has(name)) errs.push(duplicate(at, name));
    const ns = sysctlNamespace(name);
    if (spec.hostNetwork && ns === 'net') errs.push(invalid(at, name, "may not be specified when 'hostNetwork' is true"));
    else if (spec.hostIPC && ns === 'ipc') errs.push(invalid(at, name, "may not be specified when 'hostIPC' is true"));
    seen.add(name);
  });
  return errs;
}

const FS_GROUP_CHANGE_POLICIES = ['Always', 'OnRootMismatch'];

/** validatePodSpecSecurityContext. */
export function validatePodSecurityContext(spec: PodSpec, path: FieldPath): FieldError[] {
  const sc = spec.securityContext;
  if (!sc) return [];
  const errs = validateIds({ fsGroup: sc.fsGroup, runAsUser: sc.runAsUser, runAsGroup: sc.runAsGroup }, path);
  (sc.supplementalGroups ?? []).forEach((gid, i) =>
    errs.push(...isValidId(gid).map((m) => invalid(path.child('supplementalGroups').index(i), gid, m))),
  );
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(invalid(path.child('shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  errs.push(...validateSysctls(spec, path.child('sysctls')));
  if (sc.fsGroupChangePolicy !== undefined && !FS_GROUP_CHANGE_POLICIES.includes(sc.fsGroupChangePolicy)) {
    errs.push(notSupported(path.child('fsGroupChangePolicy'), sc.fsGroupChangePolicy, FS_GROUP_CHANGE_POLICIES));
  }
  errs.push(...validateSeccompProfile(sc.seccompProfile, path.child('seccompProfile')));
  errs.push(...validateWindowsOptions(sc.windowsOptions, path.child('windowsOptions')));
  return errs;
}

/** Every container of a spec with its path (podshelper.VisitContainersWithPath). */
function containersWithPaths(spec: PodSpec, path: FieldPath): [Container, FieldPath][] {
  const out: [Container, FieldPath][] = [];
  for (const kind of ['initContainers', 'containers', 'ephemeralContainers'] as const) {
    (spec[kind] ?? []).forEach((c, i) => out.push([c, path.child(kind).index(i)]));
  }
  return out;
}

const POD_FIELDS_FORBIDDEN_ON_WINDOWS = [
  'seLinuxOptions',
  'seccompProfile',
  'fsGroup',
  'fsGroupChangePolicy',
  'sysctls',
  'runAsUser',
  'runAsGroup',
  'supplementalGroups',
] as const;
const CONTAINER_FIELDS_FORBIDDEN_ON_WINDOWS = [
  'seLinuxOptions',
  'seccompProfile',
  'capabilities',
  'readOnlyRootFilesystem',
  'privileged',
  'allowPrivilegeEscalation',
  'procMount',
  'runAsUser',
  'runAsGroup',
] as const;

/** validateOS with validateLinux / validateWindows: the fields an OS does not support. */
export function validateOS(spec: PodSpec, path: FieldPath): FieldError[] {
  const name = spec.os?.name;
  if (name === undefined) return [];
  if (name !== 'linux' && name !== 'windows') return [notSupported(path.child('os', 'name'), name, ['linux', 'windows'])];
  const errs: FieldError[] = [];
  const sc = spec.securityContext;
  if (name === 'linux') {
    if (sc?.windowsOptions)
      errs.push(forbidden(path.child('securityContext', 'windowsOptions'), 'windows options cannot be set for a linux pod'));
    for (const [c, at] of containersWithPaths(spec, path)) {
      if (c.securityContext?.windowsOptions)
        errs.push(forbidden(at.child('securityContext', 'windowsOptions'), 'windows options cannot be set for a linux pod'));
    }
    return errs;
  }
  if (spec.hostPID) errs.push(forbidden(path.child('hostPID'), 'cannot be set for a windows pod'));
  if (spec.hostIPC) errs.push(forbidden(path.child('hostIPC'), 'cannot be set for a windows pod'));
  if (spec.shareProcessNamespace !== undefined)
    errs.push(forbidden(path.child('shareProcessNamespace'), 'cannot be set for a windows pod'));
  for (const field of POD_FIELDS_FORBIDDEN_ON_WINDOWS) {
    const value = sc?.[field];
    if (value !== undefined && !(Array.isArray(value) && value.length === 0 && field === 'sysctls')) {
      errs.push(forbidden(path.child('securityContext', field), 'cannot be set for a windows pod'));
    }
  }
  for (const [c, at] of containersWithPaths(spec, path)) {
    for (const field of CONTAINER_FIELDS_FORBIDDEN_ON_WINDOWS) {
      if (c.securityContext?.[field] !== undefined)
        errs.push(forbidden(at.child('securityContext', field), 'cannot be set for a windows pod'));
    }
  }
  return errs;
}
