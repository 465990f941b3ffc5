/**
 * ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding: defaulted and validated
 * (policy-validation.ts); a policy's status is the server's (its /status subresource), reset on create
 * and kept on update; metadata.generation tracks spec changes.
 */
import { type Strategy, type SubresourceStrategy, typedStrategy } from '../../api/strategy.js';
import { resetStatusForMainResource, storedMetadataStatusSubresource } from '../generic/status-subresource.js';
import { applyBindingDefaults, applyPolicyDefaults } from './policy-defaults.js';
import type { Binding, Policy } from './policy-types.js';
import { validateBindingSpec, validatePolicySpec } from './policy-validation.js';

export const validatingAdmissionPolicyStrategy: Strategy = typedStrategy<Policy>({
  applyDefaults: (obj) => applyPolicyDefaults(obj.spec),
  prepareForCreate: (obj) => resetStatusForMainResource(obj, null),
  prepareForUpdate: (obj, old) => resetStatusForMainResource(obj, old),
  validate: (obj) => validatePolicySpec(obj.metadata.name ?? '', obj.spec),
  validateUpdate: (obj) => validatePolicySpec(obj.metadata.name ?? '', obj.spec),
});

/** /status: only the status changes (typeChecking is the server's to write). */
export const validatingAdmissionPolicyStatusStrategy: SubresourceStrategy = storedMetadataStatusSubresource;

export const validatingAdmissionPolicyBindingStrategy: Strategy = typedStrategy<Binding>({
  applyDefaults: (obj) => applyBindingDefaults(obj.spec),
  validate: (obj) => validateBindingSpec(obj.spec),
  validateUpdate: (obj) => validateBindingSpec(obj.spec),
});
