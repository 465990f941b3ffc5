/**
 * SecurityContextDeny (deprecated in Kubernetes, kept for parity): a pod may not set the user, group,
 * supplemental groups, fsGroup or SELinux options of its pod or container security contexts (403).
 */
import { admissionForbidden } from '../errors.js';
import type { PluginFactory, ValidatingPlugin } from '../interfaces.js';
import { allContainers, podOf } from '../pods.js';

/** The fields a container's security context may not set, with the Go names the messages use. */
const CONTAINER_FIELDS: [string, string][] = [
  ['seLinuxOptions', 'SELinuxOptions'],
  ['runAsUser', 'RunAsUser'],
  ['runAsGroup', 'RunAsGroup'],
];
/** The pod's: the container's, between supplementalGroups and fsGroup (the order Kubernetes checks them in). */
const POD_FIELDS: [string, string][] = [['supplementalGroups', 'SupplementalGroups'], ...CONTAINER_FIELDS, ['fsGroup', 'FSGroup']];

export const newSecurityContextDeny: PluginFactory = (): ValidatingPlugin => ({
  name: 'SecurityContextDeny',
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  async validate(a) {
    const pod = podOf(a);
    if (!pod) return;
    const sc = pod.spec.securityContext ?? {};
    for (const [field, goName] of POD_FIELDS) {
      if (sc[field] !== undefined && sc[field] !== null) throw admissionForbidden(a, `pod.Spec.SecurityContext.${goName} is forbidden`);
    }
    for (const c of allContainers(pod.spec)) {
      for (const [field, goName] of CONTAINER_FIELDS) {
        const v = c.securityContext?.[field];
        if (v !== undefined && v !== null) throw admissionForbidden(a, `SecurityContext.${goName} is forbidden`);
      }
    }
  },
});
