/**
 * admissionregistration.k8s.io/v1 (served as admissionregistration.<domain>/v1): webhook configurations
 * and validating admission policies with their bindings (policies also as v1beta1, off by default).
 */
import type { ResourceDeclaration } from '../../api/resource.js';
import { AGE_COLUMN } from '../../api/printers/columns.js';
import type { PrinterColumn } from '../../api/resource.js';
import { validatingAdmissionPolicyResources } from './admissionregistration-policies.js';
import { mutatingWebhookConfigurationStrategy, validatingWebhookConfigurationStrategy } from '../admissionregistration/strategy.js';

/** WEBHOOKS (how many) and AGE, as kubectl prints both configurations. */
const webhookColumns: PrinterColumn[] = [
  {
    name: 'Webhooks',
    type: 'integer',
    description: 'Webhooks indicates the number of webhooks registered in this configuration',
    cell: (obj) => (Array.isArray(obj.webhooks) ? obj.webhooks.length : 0),
  },
  AGE_COLUMN,
];

export const admissionregistrationResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: 'ValidatingWebhookConfiguration',
    requireResourceVersionOnUpdate: true,
    plural: 'validatingwebhookconfigurations',
    singular: 'validatingwebhookconfiguration',
    categories: ['api-extensions'],
    namespaced: false,
    schema: 'admissionregistration.v1.ValidatingWebhookConfiguration',
    nameRule: 'dns-subdomain',
    strategy: validatingWebhookConfigurationStrategy,
    trackGeneration: true,
    columns: webhookColumns,
  },
  {
    kubernetesGroup: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: 'MutatingWebhookConfiguration',
    requireResourceVersionOnUpdate: true,
    plural: 'mutatingwebhookconfigurations',
    singular: 'mutatingwebhookconfiguration',
    categories: ['api-extensions'],
    namespaced: false,
    schema: 'admissionregistration.v1.MutatingWebhookConfiguration',
    nameRule: 'dns-subdomain',
    strategy: mutatingWebhookConfigurationStrategy,
    trackGeneration: true,
    columns: webhookColumns,
  },
  ...validatingAdmissionPolicyResources,
];
