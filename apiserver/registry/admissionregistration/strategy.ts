/**
 * ValidatingWebhookConfiguration and MutatingWebhookConfiguration: every webhook defaulted and validated,
 * webhook names unique within a configuration; metadata.generation tracks changes to the webhooks.
 */
import type { ObjectMeta } from '../../api/object-meta.js';
import { type Strategy, typedStrategy } from '../../api/strategy.js';
import type { FieldError } from '../../api/field-errors.js';
import { duplicate, fieldPath } from '../../api/field-errors.js';
import { applyWebhookDefaults } from './defaults.js';
import { validateWebhook } from './webhook.js';
import type { Webhook } from './types.js';

/** A Validating- or MutatingWebhookConfiguration as its strategy reads it. */
interface WebhookConfiguration {
  metadata: ObjectMeta;
  webhooks?: Webhook[];
}

const webhooksOf = (obj: WebhookConfiguration) => obj.webhooks ?? [];

function webhookConfigurationStrategy(mutating: boolean): Strategy {
  const validateWebhooks = (obj: WebhookConfiguration): FieldError[] => {
    const errors: FieldError[] = [];
    const names = new Set<string>();
    webhooksOf(obj).forEach((hook, i) => {
      const path = fieldPath('webhooks').index(i);
      errors.push(...validateWebhook(hook, mutating, path));
      const name = hook.name ?? '';
      if (!name) return;
      if (names.has(name)) errors.push(duplicate(path.child('name'), name));
      names.add(name);
    });
    return errors;
  };
  return typedStrategy<WebhookConfiguration>({
    applyDefaults: (obj) => webhooksOf(obj).forEach((hook) => applyWebhookDefaults(hook, mutating)),
    validate: validateWebhooks,
    validateUpdate: (obj) => validateWebhooks(obj),
  });
}

export const validatingWebhookConfigurationStrategy = webhookConfigurationStrategy(false);
export const mutatingWebhookConfigurationStrategy = webhookConfigurationStrategy(true);
