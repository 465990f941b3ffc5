/**
 * PodNodeSelector: a pod created in a namespace gets the namespace's node selector (annotation
 * `scheduler.alpha.<prefix>/node-selector`, else the configuration's clusterDefaultNodeSelector) merged
 * into its own; a conflict with it, or a label outside the namespace's whitelist in the configuration
 * (podNodeSelectorPluginConfig: {<namespace>: "k=v,..."}), is refused (403).
 */
import * as status from '../../api/status.js';
import { admissionForbidden } from '../errors.js';
import type { AdmissionAttributes, AdmissionPlugin, PluginFactory } from '../interfaces.js';
import { labelsConflict, parseLabelSet } from '../label-set.js';
import { podOf } from '../pods.js';
import { NAMESPACES } from '../resources.js';
import { messageOf } from '../../api/thrown.js';

function readConfig(config: unknown): Record<string, string> {
  if (config === undefined || config === null) return {};
  const c = (config as { podNodeSelectorPluginConfig?: unknown }).podNodeSelectorPluginConfig;
  if (c === undefined) return {};
  if (typeof c !== 'object' || c === null || Object.values(c).some((v) => typeof v !== 'string')) {
    throw new Error('podNodeSelectorPluginConfig must map names to selector strings');
  }
  const selectors = c as Record<string, string>;
  for (const s of Object.values(selectors)) parseLabelSet(s);
  return selectors;
}

export const newPodNodeSelector: PluginFactory = ({ domain, reader }, config): AdmissionPlugin => {
  const selectors = readConfig(config);
  const annotation = `scheduler.alpha.${domain.labelPrefix}/node-selector`;
  const namespaceSelector = async (a: AdmissionAttributes): Promise<Record<string, string>> => {
    const ns = await reader.get(NAMESPACES, '', a.namespace);
    if (!ns) throw status.notFound({ group: '', resource: 'namespaces' }, a.namespace);
    const text = ns.metadata.annotations?.[annotation] ?? selectors.clusterDefaultNodeSelector ?? '';
    try {
      return parseLabelSet(text);
    } catch (err) {
      throw admissionForbidden(a, messageOf(err));
    }
  };
  const check = async (a: AdmissionAttributes, nodeSelector: Record<string, string>) => {
    if (labelsConflict(await namespaceSelector(a), nodeSelector)) {
      throw admissionForbidden(a, 'pod node label selector conflicts with its namespace node label selector');
    }
    const whitelist = parseLabelSet(selectors[a.namespace] ?? '');
    if (Object.keys(whitelist).length && Object.entries(nodeSelector).some(([k, v]) => whitelist[k] !== v)) {
      throw admissionForbidden(a, 'pod node label selector labels conflict with its namespace whitelist');
    }
  };
  return {
    name: 'PodNodeSelector',
    handles: (op) => op === 'CREATE',
    async admit(a) {
      const pod = podOf(a);
      if (!pod) return;
      const own = pod.spec.nodeSelector ?? {};
      const fromNamespace = await namespaceSelector(a);
      if (labelsConflict(fromNamespace, own)) {
        throw admissionForbidden(a, 'pod node label selector conflicts with its namespace node label selector');
      }
      const merged = { ...fromNamespace, ...own };
      if (Object.keys(merged).length) pod.spec.nodeSelector = merged;
      await check(a, merged);
    },
    async validate(a) {
      const pod = podOf(a);
      if (pod) await check(a, pod.spec.nodeSelector ?? {});
    },
  };
};
