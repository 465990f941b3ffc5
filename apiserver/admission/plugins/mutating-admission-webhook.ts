/** MutatingAdmissionWebhook: the MutatingWebhookConfigurations' webhooks, in the mutating phase (webhook/dispatcher.ts). */
import type { MutatingPlugin, PluginFactory } from '../interfaces.js';
import { MUTATING_WEBHOOK_CONFIGURATIONS } from '../resources.js';
import { newDispatcher } from '../webhook/dispatcher.js';
import { newHookSource } from '../webhook/hook-source.js';

export const newMutatingAdmissionWebhook: PluginFactory = (env): MutatingPlugin => {
  const source = newHookSource(env, MUTATING_WEBHOOK_CONFIGURATIONS);
  const dispatcher = newDispatcher(env, 'admit');
  return {
    name: 'MutatingAdmissionWebhook',
    handles: () => true,
    async admit(a) {
      await dispatcher.admit(await source.current(), a);
    },
  };
};
