/** MutatingAdmissionWebhook: the MutatingWebhookConfigurations' webhooks, in the mutating phase (webhook/dispatcher.ts). */
import type { MutatingPlugin, PluginFactory } from '../interfaces.js';
import { MUTATING_WEBHOOK_CONFIGURATIONS } from '../resources.js';
import { newDispatcher } from '../webhook/dispatcher.js';
import { newHookSource } from '../webhook/hook-source.js';
import { readWebhookCredentials } from '../webhook/credentials.js';

export const newMutatingAdmissionWebhook: PluginFactory = (env, config): MutatingPlugin => {
  const source = newHookSource(env, MUTATING_WEBHOOK_CONFIGURATIONS);
  const dispatcher = newDispatcher(env, 'admit', readWebhookCredentials(config, env.domain));
  return {
    name: 'MutatingAdmissionWebhook',
    handles: () => true,
    async admit(a) {
      await dispatcher.admit(await source.current(), a);
    },
  };
};
