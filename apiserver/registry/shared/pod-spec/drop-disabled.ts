/**
 * DropDisabledPodFields for the alpha features of Kubernetes 1.28 (off by default): their fields are
 * silently cleared on write unless the stored object already uses them.
 *   DynamicResourceAllocation   spec.resourceClaims, containers[*].resources.claims
 *   UserNamespacesSupport       spec.hostUsers
 *   InPlacePodVerticalScaling   containers[*].resizePolicy
 *   SidecarContainers           initContainers[*].restartPolicy
 *   ProcMountType               containers[*].securityContext.procMount
 */
import type { Container, PodSpec } from '../../../api/generated/types.js';

function allContainers(spec: PodSpec | undefined): Container[] {
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? []), ...(spec?.ephemeralContainers ?? [])];
}

interface GatedField {
  inUse(spec: PodSpec): boolean;
  drop(spec: PodSpec): void;
}

const GATED_FIELDS: readonly GatedField[] = [
  {
    inUse: (s) => (s.resourceClaims ?? []).length > 0 || allContainers(s).some((c) => (c.resources?.claims ?? []).length > 0),
    drop: (s) => {
      delete s.resourceClaims;
      for (const c of allContainers(s)) delete c.resources?.claims;
    },
  },
  { inUse: (s) => s.hostUsers !== undefined, drop: (s) => delete s.hostUsers },
  {
    inUse: (s) => allContainers(s).some((c) => c.resizePolicy !== undefined),
    drop: (s) => allContainers(s).forEach((c) => delete c.resizePolicy),
  },
  {
    inUse: (s) => (s.initContainers ?? []).some((c) => c.restartPolicy !== undefined),
    drop: (s) => (s.initContainers ?? []).forEach((c) => delete c.restartPolicy),
  },
  {
    inUse: (s) => allContainers(s).some((c) => c.securityContext?.procMount !== undefined),
    drop: (s) => allContainers(s).forEach((c) => delete c.securityContext?.procMount),
  },
];

/** Clears the fields of disabled features from `spec`, keeping those `oldSpec` (the stored object) uses. */
export function dropDisabledPodSpecFields(spec: PodSpec, oldSpec?: PodSpec): void {
  for (const field of GATED_FIELDS) {
    if (!(oldSpec && field.inUse(oldSpec))) field.drop(spec);
  }
}
