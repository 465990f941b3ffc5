/**
 * ExtendedResourceToleration: a pod that requests an extended resource (a name with a domain outside
 * `<prefix>/`, e.g. `example.com/gpu`) tolerates the `<resource>:NoSchedule` taint nodes with that
 * resource carry.
 */
import type { MutatingPlugin, PluginFactory } from '../interfaces.js';
import { allContainers, podOf, type Toleration } from '../pods.js';
import { mergeTolerations } from '../tolerations.js';

export const newExtendedResourceToleration: PluginFactory = ({ domain }): MutatingPlugin => {
  const native = (name: string) => !name.includes('/') || name.startsWith(`${domain.labelPrefix}/`) || name.startsWith('requests.');
  return {
    name: 'ExtendedResourceToleration',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async admit(a) {
      const pod = podOf(a);
      if (!pod) return;
      const names = new Set<string>();
      for (const c of allContainers(pod.spec)) {
        for (const n of Object.keys(c.resources?.requests ?? {})) if (!native(n)) names.add(n);
        for (const n of Object.keys(c.resources?.limits ?? {})) if (!native(n)) names.add(n);
      }
      if (names.size === 0) return;
      const extra: Toleration[] = [...names].sort().map((key) => ({ key, operator: 'Exists', effect: 'NoSchedule' }));
      pod.spec.tolerations = mergeTolerations(pod.spec.tolerations ?? [], extra);
    },
  };
};
