/** ValidatingAdmissionWebhook: the ValidatingWebhookConfigurations' webhooks, in the validating phase (webhook/dispatcher.ts). */
import type { PluginFactory, ValidatingPlugin } from '../interfaces.js';
import { VALIDATING_WEBHOOK_CONFIGURATIONS } from '../resources.js';
import { newDispatcher } from '../webhook/dispatcher.js';
import { newHookSource } from '../webhook/hook-source.js';
import { readWebhookCredentials } from '../webhook/credentials.js';

export const newValidatingAdmissionWebhook: PluginFactory = (env, config): ValidatingPlugin => {
  const source = newHookSource(env, VALIDATING_WEBHOOK_CONFIGURATIONS);
  const dispatcher = newDispatcher(env, 'validating', readWebhookCredentials(config, env.domain));
  return {
    name: 'ValidatingAdmissionWebhook',
    handles: () => true,
    async validate(a) {
      await dispatcher.validate(await source.current(), a);
    },
  };
};
