/**
 * The Pod Security Standards (Kubernetes 1.28, pod-security-admission's policy checks): each check
 * looks at a pod's metadata and spec and answers nothing or a reason and detail, worded as Kubernetes
 * words them. `baseline` checks apply to baseline and restricted; `restricted` checks only there.
 */
import type { Container, PodSpec } from '../pods.js';

export type Level = 'privileged' | 'baseline' | 'restricted';

export interface Violation {
  reason: string;
  detail: string;
}

interface PodMeta {
  annotations?: Record<string, string>;
}

type Check = (meta: PodMeta, spec: PodSpec, prefix: string) => Violation | undefined;

type SecurityContext = {
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  runAsNonRoot?: boolean;
  runAsUser?: number;
  procMount?: string;
  capabilities?: { add?: string[]; drop?: string[] };
  seccompProfile?: { type?: string };
  seLinuxOptions?: { type?: string; user?: string; role?: string };
  windowsOptions?: { hostProcess?: boolean };
  sysctls?: { name: string }[];
};

const containersOf = (spec: PodSpec): Container[] => [
  ...(spec.initContainers ?? []),
  ...(spec.containers ?? []),
  ...(spec.ephemeralContainers ?? []),
];
const sc = (c: Container): SecurityContext => (c.securityContext ?? {}) as SecurityContext;
const podSc = (spec: PodSpec): SecurityContext => (spec.securityContext ?? {}) as SecurityContext;
const quoted = (names: string[]) => names.map((n) => JSON.stringify(n)).join(', ');
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);
const containersWord = (names: string[]) => `${plural(names.length, 'container', 'containers')} ${quoted(names)}`;

const BASELINE_CAPABILITIES = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);
const SAFE_SYSCTLS = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
]);
const RESTRICTED_VOLUME_TYPES = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
];

const hostProcess: Check = (_m, spec) => {
  const names = containersOf(spec)
    .filter((c) => sc(c).windowsOptions?.hostProcess === true)
    .map((c) => c.name);
  const pod = podSc(spec).windowsOptions?.hostProcess === true;
  if (!pod && names.length === 0) return undefined;
  const who = pod ? (names.length ? `pod and ${containersWord(names)}` : 'pod') : containersWord(names);
  return { reason: 'hostProcess', detail: `${who} must not set securityContext.windowsOptions.hostProcess=true` };
};

const hostNamespaces: Check = (_m, spec) => {
  const set = (['hostNetwork', 'hostPID', 'hostIPC'] as const).filter((f) => spec[f] === true);
  return set.length ? { reason: 'host namespaces', detail: set.map((f) => `${f}=true`).join(', ') } : undefined;
};

const privileged: Check = (_m, spec) => {
  const names = containersOf(spec)
    .filter((c) => sc(c).privileged === true)
    .map((c) => c.name);
  return names.length
    ? { reason: 'privileged', detail: `${containersWord(names)} must not set securityContext.privileged=true` }
    : undefined;
};

const baselineCapabilities: Check = (_m, spec) => {
  const bad = new Set<string>();
  const names: string[] = [];
  for (const c of containersOf(spec)) {
    const extra = (sc(c).capabilities?.add ?? []).filter((cap) => !BASELINE_CAPABILITIES.has(cap));
    if (extra.length) {
      names.push(c.name);
      for (const cap of extra) bad.add(cap);
    }
  }
  if (!names.length) return undefined;
  return {
    reason: 'non-default capabilities',
    detail: `${containersWord(names)} must not include ${quoted([...bad].sort())} in securityContext.capabilities.add`,
  };
};

const hostPathVolumes: Check = (_m, spec) => {
  const names = (spec.volumes ?? []).filter((v) => v.hostPath).map((v) => v.name);
  return names.length ? { reason: 'hostPath volumes', detail: `${plural(names.length, 'volume', 'volumes')} ${quoted(names)}` } : undefined;
};

const hostPorts: Check = (_m, spec) => {
  const names: string[] = [];
  const ports: number[] = [];
  for (const c of containersOf(spec)) {
    const hp = ((c.ports as { hostPort?: number }[] | undefined) ?? []).map((p) => p.hostPort ?? 0).filter((p) => p !== 0);
    if (hp.length) {
      names.push(c.name);
      ports.push(...hp);
    }
  }
  if (!names.length) return undefined;
  return {
    reason: 'hostPort',
    detail: `${containersWord(names)} ${plural(names.length, 'uses', 'use')} ${plural(ports.length, 'hostPort', 'hostPorts')} ${ports.join(', ')}`,
  };
};

const appArmor: Check = (meta, _spec, prefix) => {
  const key = `container.apparmor.security.beta.${prefix}/`;
  const bad = Object.entries(meta.annotations ?? {})
    .filter(([k, v]) => k.startsWith(key) && v !== 'runtime/default' && !v.startsWith('localhost/'))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return bad.length ? { reason: 'forbidden AppArmor profile', detail: bad.sort().join(', ') } : undefined;
};

const seLinux: Check = (_m, spec) => {
  const allowedTypes = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
  const bad = (o: SecurityContext['seLinuxOptions']) => o !== undefined && (!allowedTypes.has(o.type ?? '') || !!o.user || !!o.role);
  const names = containersOf(spec)
    .filter((c) => bad(sc(c).seLinuxOptions))
    .map((c) => c.name);
  const pod = bad(podSc(spec).seLinuxOptions);
  if (!pod && !names.length) return undefined;
  const who = pod ? (names.length ? `pod and ${containersWord(names)}` : 'pod') : containersWord(names);
  return { reason: 'seLinuxOptions', detail: `${who} set forbidden securityContext.seLinuxOptions: type, user or role` };
};

const procMount: Check = (_m, spec) => {
  const names = containersOf(spec)
    .filter((c) => sc(c).procMount !== undefined && sc(c).procMount !== 'Default')
    .map((c) => c.name);
  return names.length
    ? { reason: 'procMount', detail: `${containersWord(names)} must not set securityContext.procMount to "Unmasked"` }
    : undefined;
};

const seccompBaseline: Check = (_m, spec) => {
  const pod = podSc(spec).seccompProfile?.type === 'Unconfined';
  const names = containersOf(spec)
    .filter((c) => sc(c).seccompProfile?.type === 'Unconfined')
    .map((c) => c.name);
  if (!pod && !names.length) return undefined;
  const who = pod ? (names.length ? `pod and ${containersWord(names)}` : 'pod') : containersWord(names);
  return { reason: 'seccompProfile', detail: `${who} must not set securityContext.seccompProfile.type to "Unconfined"` };
};

const sysctls: Check = (_m, spec) => {
  const bad = (podSc(spec).sysctls ?? []).map((s) => s.name).filter((n) => !SAFE_SYSCTLS.has(n));
  return bad.length ? { reason: 'forbidden sysctls', detail: bad.join(', ') } : undefined;
};

const volumeTypes: Check = (_m, spec) => {
  const bad: string[] = [];
  const types = new Set<string>();
  for (const v of spec.volumes ?? []) {
    const type = Object.keys(v).find((k) => k !== 'name');
    if (type && !RESTRICTED_VOLUME_TYPES.includes(type)) {
      bad.push(v.name);
      types.add(type);
    }
  }
  if (!bad.length) return undefined;
  return {
    reason: 'restricted volume types',
    detail: `${plural(bad.length, 'volume', 'volumes')} ${quoted(bad)} ${plural(bad.length, 'uses', 'use')} restricted ${plural(types.size, 'volume type', 'volume types')} ${quoted([...types])}`,
  };
};

const privilegeEscalation: Check = (_m, spec) => {
  const names = containersOf(spec)
    .filter((c) => sc(c).allowPrivilegeEscalation !== false)
    .map((c) => c.name);
  return names.length
    ? {
        reason: 'allowPrivilegeEscalation != false',
        detail: `${containersWord(names)} must set securityContext.allowPrivilegeEscalation=false`,
      }
    : undefined;
};

const runAsNonRoot: Check = (_m, spec) => {
  const pod = podSc(spec).runAsNonRoot;
  if (pod === false) return { reason: 'runAsNonRoot != true', detail: 'pod must not set securityContext.runAsNonRoot=false' };
  const explicitFalse = containersOf(spec)
    .filter((c) => sc(c).runAsNonRoot === false)
    .map((c) => c.name);
  if (explicitFalse.length)
    return { reason: 'runAsNonRoot != true', detail: `${containersWord(explicitFalse)} must not set securityContext.runAsNonRoot=false` };
  if (pod === true) return undefined;
  const unset = containersOf(spec)
    .filter((c) => sc(c).runAsNonRoot !== true)
    .map((c) => c.name);
  if (!unset.length) return undefined;
  return { reason: 'runAsNonRoot != true', detail: `pod or ${containersWord(unset)} must set securityContext.runAsNonRoot=true` };
};

const runAsUser: Check = (_m, spec) => {
  const pod = podSc(spec).runAsUser === 0;
  const names = containersOf(spec)
    .filter((c) => sc(c).runAsUser === 0)
    .map((c) => c.name);
  if (!pod && !names.length) return undefined;
  const who = pod ? (names.length ? `pod and ${containersWord(names)}` : 'pod') : containersWord(names);
  return { reason: 'runAsUser=0', detail: `${who} must not set runAsUser=0` };
};

const seccompRestricted: Check = (_m, spec) => {
  const ok = (t: string | undefined) => t === 'RuntimeDefault' || t === 'Localhost';
  const podType = podSc(spec).seccompProfile?.type;
  if (podType !== undefined && !ok(podType)) {
    return { reason: 'seccompProfile', detail: `pod must not set securityContext.seccompProfile.type to ${JSON.stringify(podType)}` };
  }
  const wrong = containersOf(spec).filter((c) => sc(c).seccompProfile?.type !== undefined && !ok(sc(c).seccompProfile?.type));
  if (wrong.length) {
    return {
      reason: 'seccompProfile',
      detail: `${containersWord(wrong.map((c) => c.name))} must not set securityContext.seccompProfile.type to ${quoted([...new Set(wrong.map((c) => sc(c).seccompProfile!.type!))])}`,
    };
  }
  if (podType !== undefined) return undefined;
  const unset = containersOf(spec)
    .filter((c) => sc(c).seccompProfile?.type === undefined)
    .map((c) => c.name);
  if (!unset.length) return undefined;
  return {
    reason: 'seccompProfile',
    detail: `pod or ${containersWord(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
  };
};

const restrictedCapabilities: Check = (_m, spec) => {
  const noDrop = containersOf(spec)
    .filter((c) => !(sc(c).capabilities?.drop ?? []).includes('ALL'))
    .map((c) => c.name);
  const adding = new Set<string>();
  const addNames: string[] = [];
  for (const c of containersOf(spec)) {
    const extra = (sc(c).capabilities?.add ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (extra.length) {
      addNames.push(c.name);
      for (const cap of extra) adding.add(cap);
    }
  }
  const parts: string[] = [];
  if (noDrop.length) parts.push(`${containersWord(noDrop)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addNames.length)
    parts.push(`${containersWord(addNames)} must not include ${quoted([...adding].sort())} in securityContext.capabilities.add`);
  return parts.length ? { reason: 'unrestricted capabilities', detail: parts.join('; ') } : undefined;
};

/** Every check by its Kubernetes ID; violations are reported in ID order, as Kubernetes sorts them. */
const CHECKS: { id: string; level: 'baseline' | 'restricted'; check: Check; overrides?: string }[] = [
  { id: 'allowPrivilegeEscalation', level: 'restricted', check: privilegeEscalation },
  { id: 'appArmorProfile', level: 'baseline', check: appArmor },
  { id: 'capabilities_baseline', level: 'baseline', check: baselineCapabilities },
  { id: 'capabilities_restricted', level: 'restricted', check: restrictedCapabilities, overrides: 'capabilities_baseline' },
  { id: 'hostNamespaces', level: 'baseline', check: hostNamespaces },
  { id: 'hostPathVolumes', level: 'baseline', check: hostPathVolumes },
  { id: 'hostPorts', level: 'baseline', check: hostPorts },
  { id: 'hostProcess', level: 'baseline', check: hostProcess },
  { id: 'privileged', level: 'baseline', check: privileged },
  { id: 'procMount', level: 'baseline', check: procMount },
  { id: 'restrictedVolumes', level: 'restricted', check: volumeTypes },
  { id: 'runAsNonRoot', level: 'restricted', check: runAsNonRoot },
  { id: 'runAsUser', level: 'restricted', check: runAsUser },
  { id: 'seLinuxOptions', level: 'baseline', check: seLinux },
  { id: 'seccompProfile_baseline', level: 'baseline', check: seccompBaseline },
  { id: 'seccompProfile_restricted', level: 'restricted', check: seccompRestricted, overrides: 'seccompProfile_baseline' },
  { id: 'sysctls', level: 'baseline', check: sysctls },
];

/** Every violation of the level (a restricted check replaces the baseline check it overrides). */
export function evaluate(level: Level, meta: PodMeta, spec: PodSpec, prefix: string): Violation[] {
  if (level === 'privileged') return [];
  const active = CHECKS.filter((c) => level === 'restricted' || c.level === 'baseline');
  const overridden = new Set(active.map((c) => c.overrides).filter((o) => o !== undefined));
  return active
    .filter((c) => !overridden.has(c.id))
    .map((c) => c.check(meta, spec, prefix))
    .filter((v): v is Violation => v !== undefined);
}

/** `reason (detail), reason (detail)`, as ForbiddenDetail prints them. */
export function describe(violations: Violation[]): string {
  return violations.map((v) => (v.detail ? `${v.reason} (${v.detail})` : v.reason)).join(', ');
}
