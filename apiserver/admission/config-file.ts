/**
 * --admission-control-config-file: an AdmissionConfiguration (apiserver.config.k8s.io/v1 or
 * apiserver.k8s.io/v1alpha1 as Kubernetes 1.28 reads them, or the domain's names of those groups,
 * config-versions.ts) whose `plugins` give each
 * plugin's configuration by `path` (relative to the file) or embedded `configuration`. As Kubernetes, a
 * file in the legacy form (an `imagePolicy` or `podNodeSelectorPluginConfig` document) configures those
 * two plugins with the whole file.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { configTypeProblem } from '../api/config-versions.js';
import type { ApiDomain } from '../api/domain.js';
import { messageOf } from '../api/thrown.js';

/** Plugin name → its configuration (parsed YAML/JSON). */
export type PluginConfigs = ReadonlyMap<string, unknown>;

function readDocument(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`unable to read ${what} from ${JSON.stringify(path)}: ${messageOf(err)}`);
  }
  try {
    return parse(text);
  } catch (err) {
    throw new Error(`${what} ${JSON.stringify(path)} is not YAML or JSON: ${messageOf(err)}`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads the file; an empty path means no configuration. Throws an Error that names the problem. */
export function readAdmissionConfiguration(path: string, domain: ApiDomain): PluginConfigs {
  const configs = new Map<string, unknown>();
  if (!path) return configs;
  const doc = readDocument(path, 'admission control configuration');
  if (!isObject(doc)) throw new Error(`admission control configuration ${JSON.stringify(path)}: not an object`);
  if (doc.kind === undefined && (doc.imagePolicy !== undefined || doc.podNodeSelectorPluginConfig !== undefined)) {
    configs.set('ImagePolicyWebhook', doc);
    configs.set('PodNodeSelector', doc);
    return configs;
  }
  const wrongType = configTypeProblem('AdmissionConfiguration', doc, domain);
  if (wrongType) throw new Error(`admission control configuration ${JSON.stringify(path)}: ${wrongType}`);
  const plugins = doc.plugins ?? [];
  if (!Array.isArray(plugins)) throw new Error(`admission control configuration ${JSON.stringify(path)}: plugins must be a list`);
  plugins.forEach((entry, i) => {
    const where = `admission control configuration ${JSON.stringify(path)}: plugins[${i}]`;
    if (!isObject(entry) || typeof entry.name !== 'string' || entry.name === '') throw new Error(`${where}: name is required`);
    if (entry.configuration !== undefined && entry.configuration !== null) configs.set(entry.name, entry.configuration);
    else if (typeof entry.path === 'string' && entry.path !== '') {
      configs.set(entry.name, readDocument(resolve(dirname(path), entry.path), `configuration of admission plugin ${entry.name}`));
    }
  });
  return configs;
}
