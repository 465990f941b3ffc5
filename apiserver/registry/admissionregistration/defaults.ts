/**
 * admissionregistration/v1 defaults (SetDefaults_ValidatingWebhook / _MutatingWebhook / _Rule /
 * _ServiceReference): failurePolicy Fail, matchPolicy Equivalent, empty selectors (match everything),
 * timeoutSeconds 10, reinvocationPolicy Never (mutating), rule scope "*", service port 443.
 */
import type { Webhook } from './types.js';

const DEFAULT_TIMEOUT_SECONDS = 10;
const DEFAULT_SERVICE_PORT = 443;

export function applyWebhookDefaults(hook: Webhook, mutating: boolean): void {
  hook.failurePolicy ??= 'Fail';
  hook.matchPolicy ??= 'Equivalent';
  hook.namespaceSelector ??= {};
  hook.objectSelector ??= {};
  hook.timeoutSeconds ??= DEFAULT_TIMEOUT_SECONDS;
  if (mutating) hook.reinvocationPolicy ??= 'Never';
  for (const rule of hook.rules ?? []) rule.scope ??= '*';
  if (hook.clientConfig?.service) hook.clientConfig.service.port ??= DEFAULT_SERVICE_PORT;
}
