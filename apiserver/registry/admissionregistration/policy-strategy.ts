/**
 * ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding: defaulted and validated
 * (policy-validation.ts); a policy's status is the server's (its /status subresource), reset on create
 * and kept on update; metadata.generation tracks spec changes.
 */
import type { ApiObject } from '../../api/object.js';
import type { Strategy, SubresourceStrategy } from '../../api/strategy.js';
import { resetStatusForMainResource, storedMetadataStatusSubresource } from '../generic/status-subresource.js';
import { applyBindingDefaults, applyPolicyDefaults } from './policy-defaults.js';
import type { BindingSpec, PolicySpec } from './policy-types.js';
import { validateBindingSpec, validatePolicySpec } from './policy-validation.js';

const policySpec = (obj: ApiObject) => obj.spec as PolicySpec | undefined;
const bindingSpec = (obj: ApiObject) => obj.spec as BindingSpec | undefined;

export const validatingAdmissionPolicyStrategy: Strategy = {
  applyDefaults: (obj) => applyPolicyDefaults(policySpec(obj)),
  prepareForCreate: (obj) => resetStatusForMainResource(obj, null),
  prepareForUpdate: (obj, old) => resetStatusForMainResource(obj, old),
  validate: (obj) => validatePolicySpec(obj.metadata.name ?? '', policySpec(obj)),
  validateUpdate: (obj) => validatePolicySpec(obj.metadata.name ?? '', policySpec(obj)),
};

/** /status: only the status changes (typeChecking is the server's to write). */
export const validatingAdmissionPolicyStatusStrategy: SubresourceStrategy = storedMetadataStatusSubresource;

export const validatingAdmissionPolicyBindingStrategy: Strategy = {
  applyDefaults: (obj) => applyBindingDefaults(bindingSpec(obj)),
  validate: (obj) => validateBindingSpec(bindingSpec(obj)),
  validateUpdate: (obj) => validateBindingSpec(bindingSpec(obj)),
};
