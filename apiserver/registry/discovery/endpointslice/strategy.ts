/** EndpointSlice (discovery/v1): port name and protocol defaults, validation, addressType fixed after create. */
import type { Strategy } from '../../../api/strategy.js';
import type { EndpointSlicePort } from './types.js';
import { validateEndpointSlice, validateEndpointSliceUpdate } from './validation.js';

export const endpointSliceStrategy: Strategy = {
  applyDefaults(obj) {
    for (const port of (obj.ports ?? []) as EndpointSlicePort[]) {
      port.name ??= '';
      port.protocol ??= 'TCP';
    }
  },
  validate: validateEndpointSlice,
  validateUpdate: (obj, old) => [...validateEndpointSlice(obj), ...validateEndpointSliceUpdate(obj, old)],
};
