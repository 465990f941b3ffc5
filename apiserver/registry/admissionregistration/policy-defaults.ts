/**
 * ValidatingAdmissionPolicy and binding defaults (SetDefaults_ValidatingAdmissionPolicySpec,
 * _MatchResources, _Rule): failurePolicy Fail, matchPolicy Equivalent, empty selectors, rule scope "*".
 */
import type { BindingSpec, MatchResources, PolicySpec } from './policy-types.js';

function defaultMatchResources(m: MatchResources | undefined): void {
  if (!m) return;
  m.matchPolicy ??= 'Equivalent';
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  for (const r of [...(m.resourceRules ?? []), ...(m.excludeResourceRules ?? [])]) r.scope ??= '*';
}

export function applyPolicyDefaults(spec: PolicySpec | undefined): void {
  if (!spec) return;
  spec.failurePolicy ??= 'Fail';
  defaultMatchResources(spec.matchConstraints);
}

export function applyBindingDefaults(spec: BindingSpec | undefined): void {
  defaultMatchResources(spec?.matchResources);
}
