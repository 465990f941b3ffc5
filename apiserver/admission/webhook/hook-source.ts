/**
 * The webhooks of every Mutating- or ValidatingWebhookConfiguration, kept current by a watch on them:
 * a change marks the list stale and the next request reads it again, so a new configuration acts on
 * the first request after it is stored. Webhooks run in the order of configuration name, then their
 * order in the configuration, as Kubernetes sorts them.
 */
import type { Webhook } from '../../registry/admissionregistration/types.js';
import type { KubeResource, PluginEnv } from '../interfaces.js';
import { staleOnChange } from '../stale-on-change.js';

export interface Hook {
  configuration: string;
  hook: Webhook;
}

export interface HookSource {
  current(): Promise<Hook[]>;
}

export function newHookSource(env: PluginEnv, resource: KubeResource): HookSource {
  const hooks = staleOnChange(async (): Promise<Hook[]> => {
    const configs = await env.reader.list(resource, '');
    configs.sort((x, y) => ((x.metadata.name ?? '') < (y.metadata.name ?? '') ? -1 : 1));
    return configs.flatMap((c) =>
      ((c as { webhooks?: Webhook[] }).webhooks ?? []).map((hook) => ({ configuration: c.metadata.name ?? '', hook })),
    );
  });
  env.watch(resource, () => hooks.changed());
  return { current: () => hooks.current() };
}
