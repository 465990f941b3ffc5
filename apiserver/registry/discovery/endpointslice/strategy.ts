/** EndpointSlice (discovery/v1): port name and protocol defaults, read-only deprecatedTopology, validation, addressType fixed after create. */
import { type Strategy, typedStrategy } from '../../../api/strategy.js';
import type { EndpointSlice } from './types.js';
import { validateEndpointSlice, validateEndpointSliceUpdate } from './validation.js';
import { addressTypeWarnings, dropDeprecatedTopology } from './drop-topology.js';

export const endpointSliceStrategy: Strategy = typedStrategy<EndpointSlice>({
  applyDefaults(obj) {
    for (const port of obj.ports ?? []) {
      port.name ??= '';
      port.protocol ??= 'TCP';
    }
  },
  prepareForCreate: (obj, ctx) => dropDeprecatedTopology(`${ctx.domain.labelPrefix}/hostname`, obj),
  prepareForUpdate: (obj, old, ctx) => dropDeprecatedTopology(`${ctx.domain.labelPrefix}/hostname`, obj, old),
  warningsOnCreate: (obj) => addressTypeWarnings(obj),
  validate: validateEndpointSlice,
  validateUpdate: (obj, old) => [...validateEndpointSlice(obj), ...validateEndpointSliceUpdate(obj, old)],
});
