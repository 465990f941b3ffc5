/**
 * ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding: admissionregistration v1 (GA as in
 * Kubernetes 1.30, served by default) and v1beta1 (as Kubernetes 1.28, served when --runtime-config
 * turns it on). Both versions have the same fields, so v1beta1 is the stored v1 objects as they are.
 * Kubernetes 1.28's definitions describe v1beta1 only; v1, being the same shape, uses its schema.
 */
import type { ApiObject } from '../../api/object.js';
import type { PrinterColumn, ResourceDeclaration, StorageConversion } from '../../api/resource.js';
import { typedColumns } from '../../api/strategy.js';
import { AGE_COLUMN } from '../../api/printers/columns.js';
import {
  validatingAdmissionPolicyBindingStrategy,
  validatingAdmissionPolicyStatusStrategy,
  validatingAdmissionPolicyStrategy,
} from '../admissionregistration/policy-strategy.js';
import type { Binding, Policy } from '../admissionregistration/policy-types.js';

const GROUP = 'admissionregistration.k8s.io';

const policyColumns: PrinterColumn[] = [
  ...typedColumns<Policy>([
    {
      name: 'Validations',
      type: 'integer',
      description: 'Validations indicates the number of validation rules defined in this configuration',
      cell: (obj) => (obj.spec?.validations ?? []).length,
    },
    {
      name: 'ParamKind',
      description: 'ParamKind specifies the kind of resources used to parameterize this policy',
      cell: (obj) => {
        const k = obj.spec?.paramKind;
        return k ? `${k.apiVersion ?? ''}/${k.kind ?? ''}` : '<unset>';
      },
    },
  ]),
  AGE_COLUMN,
];

const bindingColumns: PrinterColumn[] = [
  ...typedColumns<Binding>([
    {
      name: 'PolicyName',
      description: 'PolicyName indicates the policy definition which the policy binding binded to',
      cell: (obj) => obj.spec?.policyName ?? '',
    },
    {
      name: 'ParamRef',
      description: 'ParamRef indicates the param resource which sets the configration param',
      cell: (obj) => {
        const r = obj.spec?.paramRef;
        if (!r) return '<unset>';
        return r.namespace ? `${r.namespace}/${r.name ?? '*'}` : `*/${r.name ?? '*'}`;
      },
    },
  ]),
  AGE_COLUMN,
];

/** v1beta1 objects are the stored v1 objects unchanged (the store sets apiVersion). */
function sameFields(kind: string, resource: string): StorageConversion {
  const same = (obj: ApiObject) => obj;
  return { storage: { kubernetesGroup: GROUP, version: 'v1', kind, resource }, toStorage: same, fromStorage: same };
}

const policy = (version: string): ResourceDeclaration => ({
  kubernetesGroup: GROUP,
  version,
  kind: 'ValidatingAdmissionPolicy',
  requireResourceVersionOnUpdate: true,
  plural: 'validatingadmissionpolicies',
  singular: 'validatingadmissionpolicy',
  categories: ['api-extensions'],
  namespaced: false,
  schema: 'admissionregistration.v1beta1.ValidatingAdmissionPolicy',
  nameRule: 'dns-subdomain',
  strategy: validatingAdmissionPolicyStrategy,
  subresources: { status: validatingAdmissionPolicyStatusStrategy },
  trackGeneration: true,
  columns: policyColumns,
  ...(version === 'v1' ? {} : { conversion: sameFields('ValidatingAdmissionPolicy', 'validatingadmissionpolicies') }),
});

const binding = (version: string): ResourceDeclaration => ({
  kubernetesGroup: GROUP,
  version,
  kind: 'ValidatingAdmissionPolicyBinding',
  requireResourceVersionOnUpdate: true,
  plural: 'validatingadmissionpolicybindings',
  singular: 'validatingadmissionpolicybinding',
  categories: ['api-extensions'],
  namespaced: false,
  schema: 'admissionregistration.v1beta1.ValidatingAdmissionPolicyBinding',
  nameRule: 'dns-subdomain',
  strategy: validatingAdmissionPolicyBindingStrategy,
  trackGeneration: true,
  columns: bindingColumns,
  ...(version === 'v1' ? {} : { conversion: sameFields('ValidatingAdmissionPolicyBinding', 'validatingadmissionpolicybindings') }),
});

export const validatingAdmissionPolicyResources: ResourceDeclaration[] = [
  policy('v1'),
  binding('v1'),
  policy('v1beta1'),
  binding('v1beta1'),
];
