/**
 * PodTolerationRestriction: a pod created gets its namespace's default tolerations (annotation
 * `scheduler.alpha.<prefix>/defaultTolerations`, JSON, else the configuration's `default`) and, unless
 * it is BestEffort, a toleration of memory pressure; its tolerations must then all be covered by the
 * namespace's whitelist (`scheduler.alpha.<prefix>/tolerationsWhitelist`, else the configuration's
 * `whitelist`; empty allows all), else 403.
 */
import { assertConfigType } from '../../api/config-versions.js';
import type { ApiDomain } from '../../api/domain.js';
import * as status from '../../api/status.js';
import { admissionForbidden } from '../errors.js';
import type { AdmissionAttributes, AdmissionPlugin, PluginFactory } from '../interfaces.js';
import { isBestEffort, podOf, type Toleration } from '../pods.js';
import { NAMESPACES } from '../resources.js';
import { mergeTolerations, verifyAgainstWhitelist } from '../tolerations.js';
import { messageOf } from '../../api/thrown.js';

interface Config {
  default?: Toleration[];
  whitelist?: Toleration[];
}

function readConfig(config: unknown, domain: ApiDomain): Config {
  if (config === undefined || config === null) return {};
  assertConfigType('PodTolerationRestriction', config, domain, '', { allowUntyped: true });
  const c = config as Config;
  if ((c.default !== undefined && !Array.isArray(c.default)) || (c.whitelist !== undefined && !Array.isArray(c.whitelist))) {
    throw new Error('default and whitelist must be lists of tolerations');
  }
  return c;
}

export const newPodTolerationRestriction: PluginFactory = ({ domain, reader }, config): AdmissionPlugin => {
  const cfg = readConfig(config, domain);
  const defaultsKey = `scheduler.alpha.${domain.labelPrefix}/defaultTolerations`;
  const whitelistKey = `scheduler.alpha.${domain.labelPrefix}/tolerationsWhitelist`;
  const memoryPressure = `node.${domain.labelPrefix}/memory-pressure`;
  const fromNamespace = async (a: AdmissionAttributes, key: string): Promise<Toleration[] | undefined> => {
    const ns = await reader.get(NAMESPACES, '', a.namespace);
    if (!ns) throw status.notFound({ group: '', resource: 'namespaces' }, a.namespace);
    const text = ns.metadata.annotations?.[key];
    if (text === undefined) return undefined;
    try {
      const list = JSON.parse(text);
      if (!Array.isArray(list)) throw new Error('not a list');
      return list;
    } catch (err) {
      throw admissionForbidden(a, `namespace annotation ${key} is not a JSON list of tolerations: ${messageOf(err)}`);
    }
  };
  const check = async (a: AdmissionAttributes) => {
    const pod = podOf(a);
    if (!pod?.spec.tolerations?.length) return;
    const own = await fromNamespace(a, whitelistKey);
    const whitelist = own ?? cfg.whitelist ?? [];
    if (!verifyAgainstWhitelist(pod.spec.tolerations, whitelist)) {
      throw admissionForbidden(
        a,
        `pod tolerations (possibly merged with namespace default tolerations) conflict with its ${own ? 'namespace' : 'cluster'} whitelist`,
      );
    }
  };
  return {
    name: 'PodTolerationRestriction',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async admit(a) {
      const pod = podOf(a);
      if (!pod) return;
      const extra: Toleration[] = [];
      if (a.operation === 'CREATE') extra.push(...((await fromNamespace(a, defaultsKey)) ?? cfg.default ?? []));
      if (!isBestEffort(pod.spec)) extra.push({ key: memoryPressure, operator: 'Exists', effect: 'NoSchedule' });
      if (extra.length) pod.spec.tolerations = mergeTolerations(pod.spec.tolerations ?? [], extra);
      await check(a);
    },
    validate: check,
  };
};
