/** networking/v1 NetworkPolicy: ports default to TCP, policyTypes to Ingress (plus Egress with egress rules); ValidateNetworkPolicySpec. */
import { typedStrategy } from '../../../api/strategy.js';
import type { NetworkPolicy, NetworkPolicySpec } from '../../../api/generated/types.js';
import { validateNetworkPolicySpec } from './validation.js';

function specOf(np: NetworkPolicy): NetworkPolicySpec {
  np.spec ??= { podSelector: {} };
  return np.spec;
}

export const networkPolicyStrategy = typedStrategy<NetworkPolicy>({
  applyDefaults(np) {
    const spec = specOf(np);
    for (const rule of [...(spec.ingress ?? []), ...(spec.egress ?? [])]) for (const port of rule.ports ?? []) port.protocol ??= 'TCP';
    if ((spec.policyTypes ?? []).length === 0) spec.policyTypes = (spec.egress ?? []).length ? ['Ingress', 'Egress'] : ['Ingress'];
  },
  validate: (np) => validateNetworkPolicySpec(specOf(np)),
  validateUpdate: (np) => validateNetworkPolicySpec(specOf(np)),
});
