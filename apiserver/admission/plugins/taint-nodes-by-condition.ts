/**
 * TaintNodesByCondition: a Node is created with the `node.<prefix>/not-ready:NoSchedule` taint (unless
 * it has it), so nothing is scheduled there before the node controller sees it Ready.
 */
import type { MutatingPlugin, PluginFactory } from '../interfaces.js';
import { isResource, NODES } from '../resources.js';

interface Taint {
  key: string;
  value?: string;
  effect: string;
}

export const newTaintNodesByCondition: PluginFactory = ({ domain }): MutatingPlugin => {
  const notReady = `node.${domain.labelPrefix}/not-ready`;
  return {
    name: 'TaintNodesByCondition',
    handles: (op) => op === 'CREATE',
    handlesResource: (r) => isResource(r, NODES),
    async admit(a) {
      if (!isResource(a.resource, NODES) || a.subresource || !a.object) return;
      const node = a.object as { spec?: { taints?: Taint[] } };
      const taints = node.spec?.taints ?? [];
      if (taints.some((t) => t.key === notReady && t.effect === 'NoSchedule')) return;
      node.spec = { ...node.spec, taints: [...taints, { key: notReady, effect: 'NoSchedule' }] };
    },
  };
};
