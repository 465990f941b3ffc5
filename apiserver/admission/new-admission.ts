/**
 * Builds the admission chain from the flags: the default-on set, plus --enable-admission-plugins, minus
 * --disable-admission-plugins (which may turn defaults off), in the table's fixed order, each plugin
 * made from its entry in --admission-control-config-file.
 */
import { newAdmissionChain, type AdmissionChain } from './chain.js';
import { readAdmissionConfiguration } from './config-file.js';
import type { AdmissionPlugin, PluginEnv } from './interfaces.js';
import { PLUGIN_TABLE, registeredPlugins } from './plugin-table.js';
import { messageOf } from '../api/thrown.js';

export interface AdmissionOptions {
  enablePlugins: string[];
  disablePlugins: string[];
  configFile: string;
}

/** The flag errors kube-apiserver reports (unknown names, a name both enabled and disabled); [] when fine. */
export function validateAdmissionOptions(o: AdmissionOptions): string[] {
  const known = new Set(registeredPlugins());
  const errors: string[] = [];
  for (const n of o.enablePlugins) if (!known.has(n)) errors.push(`enable-admission-plugins plugin ${JSON.stringify(n)} is unknown`);
  for (const n of o.disablePlugins) if (!known.has(n)) errors.push(`disable-admission-plugins plugin ${JSON.stringify(n)} is unknown`);
  const both = o.enablePlugins.filter((n) => o.disablePlugins.includes(n)).sort();
  if (both.length) errors.push(`[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  return errors;
}

/** The plugins that will run, in execution order. */
export function enabledPluginNames(o: Pick<AdmissionOptions, 'enablePlugins' | 'disablePlugins'>): string[] {
  return PLUGIN_TABLE.filter((p) => o.enablePlugins.includes(p.name) || (p.defaultOn && !o.disablePlugins.includes(p.name))).map(
    (p) => p.name,
  );
}

/**
 * The chain; a configuration a plugin refuses throws an Error naming the plugin. `builtIn` plugins
 * are not configurable and run before the table's (the RBAC escalation check, a strategy's job in
 * Kubernetes).
 */
export function newAdmissionFromOptions(o: AdmissionOptions, env: PluginEnv, builtIn: readonly AdmissionPlugin[] = []): AdmissionChain {
  const configs = readAdmissionConfiguration(o.configFile, env.domain);
  const enabled = new Set(enabledPluginNames(o));
  const plugins = PLUGIN_TABLE.filter((p) => enabled.has(p.name)).map((p) => {
    try {
      return p.factory(env, configs.get(p.name));
    } catch (err) {
      throw new Error(`admission plugin ${p.name}: ${messageOf(err)}`);
    }
  });
  return newAdmissionChain([...builtIn, ...plugins]);
}
