/**
 * DefaultTolerationSeconds: a pod created or updated without a toleration of the not-ready or unreachable
 * NoExecute taint gets one, for --default-not-ready-toleration-seconds and
 * --default-unreachable-toleration-seconds (300 each). An empty key or effect tolerates already.
 */
import type { MutatingPlugin, PluginFactory } from '../interfaces.js';
import { podOf, type Toleration } from '../pods.js';
import { isResource, PODS } from '../resources.js';

function tolerates(tolerations: Toleration[], key: string): boolean {
  return tolerations.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
}

export const newDefaultTolerationSeconds: PluginFactory = ({ domain, flags }): MutatingPlugin => {
  const notReady = `node.${domain.labelPrefix}/not-ready`;
  const unreachable = `node.${domain.labelPrefix}/unreachable`;
  return {
    name: 'DefaultTolerationSeconds',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    handlesResource: (r) => isResource(r, PODS),
    async admit(a) {
      const pod = podOf(a);
      if (!pod) return;
      const tolerations = pod.spec.tolerations ?? [];
      const added: Toleration[] = [];
      if (!tolerates(tolerations, notReady)) {
        added.push({ key: notReady, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: flags.defaultNotReadyTolerationSeconds });
      }
      if (!tolerates(tolerations, unreachable)) {
        added.push({
          key: unreachable,
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: flags.defaultUnreachableTolerationSeconds,
        });
      }
      if (added.length) pod.spec.tolerations = [...tolerations, ...added];
    },
  };
};
