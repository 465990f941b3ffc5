/**
 * LimitPodHardAntiAffinityTopology: a pod's required anti-affinity terms may only use the
 * `<prefix>/hostname` topology key (403 otherwise), so one pod cannot block a whole zone.
 */
import { admissionForbidden } from '../errors.js';
import type { PluginFactory, ValidatingPlugin } from '../interfaces.js';
import { podOf } from '../pods.js';

type Terms = { topologyKey?: string }[];

export const newLimitPodHardAntiAffinityTopology: PluginFactory = ({ domain }): ValidatingPlugin => {
  const hostname = `${domain.labelPrefix}/hostname`;
  return {
    name: 'LimitPodHardAntiAffinityTopology',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async validate(a) {
      const pod = podOf(a);
      const anti = (pod?.spec.affinity as { podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: Terms } } | undefined)
        ?.podAntiAffinity;
      for (const term of anti?.requiredDuringSchedulingIgnoredDuringExecution ?? []) {
        if (term.topologyKey !== hostname) {
          throw admissionForbidden(
            a,
            `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${term.topologyKey ?? ''} but only key ${hostname} is allowed`,
          );
        }
      }
    },
  };
};
