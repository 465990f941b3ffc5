/** admissionregistration/v1 webhook fields as the strategies read them (JSON form). */
import type { LabelSelectorObject } from '../../runtime/selectors/label-selector.js';

export interface ServiceReference {
  namespace?: string;
  name?: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  caBundle?: string;
}

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface MatchCondition {
  name?: string;
  expression?: string;
}

/** A ValidatingWebhook or MutatingWebhook (reinvocationPolicy only in the latter). */
export interface Webhook {
  name?: string;
  clientConfig?: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: string;
  matchPolicy?: string;
  namespaceSelector?: LabelSelectorObject;
  objectSelector?: LabelSelectorObject;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  reinvocationPolicy?: string;
  matchConditions?: MatchCondition[];
}
