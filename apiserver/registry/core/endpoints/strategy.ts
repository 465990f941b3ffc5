/** Endpoints: ports default to TCP, subsets are validated and stored repacked (Kubernetes' endpoints strategy). */
import { type Strategy, typedStrategy } from '../../../api/strategy.js';
import { repackSubsets } from './repack.js';
import type { Endpoints } from './types.js';
import { validateEndpoints } from './validation.js';

export const endpointsStrategy: Strategy = typedStrategy<Endpoints>({
  applyDefaults(obj) {
    for (const ss of obj.subsets ?? []) {
      for (const port of ss.ports ?? []) if (!port.protocol) port.protocol = 'TCP';
    }
  },
  validate: validateEndpoints,
  validateUpdate: (obj) => validateEndpoints(obj),
  canonicalize(obj) {
    if (Array.isArray(obj.subsets)) obj.subsets = repackSubsets(obj.subsets);
  },
});
