/** EndpointSlice (discovery/v1): port name and protocol defaults, read-only deprecatedTopology, validation, addressType fixed after create. */
import type { Strategy } from '../../../api/strategy.js';
import type { EndpointSlicePort } from './types.js';
import { validateEndpointSlice, validateEndpointSliceUpdate } from './validation.js';
import { addressTypeWarnings, dropDeprecatedTopology, type SliceEndpoints } from './drop-topology.js';

export const endpointSliceStrategy: Strategy = {
  applyDefaults(obj) {
    for (const port of (obj.ports ?? []) as EndpointSlicePort[]) {
      port.name ??= '';
      port.protocol ??= 'TCP';
    }
  },
  prepareForCreate: (obj, ctx) => dropDeprecatedTopology(`${ctx.domain.labelPrefix}/hostname`, obj as SliceEndpoints),
  prepareForUpdate: (obj, old, ctx) =>
    dropDeprecatedTopology(`${ctx.domain.labelPrefix}/hostname`, obj as SliceEndpoints, old as SliceEndpoints),
  warningsOnCreate: (obj) => addressTypeWarnings(obj as { addressType?: string }),
  validate: validateEndpointSlice,
  validateUpdate: (obj, old) => [...validateEndpointSlice(obj), ...validateEndpointSliceUpdate(obj, old)],
};
