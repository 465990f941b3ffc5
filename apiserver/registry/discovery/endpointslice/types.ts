/** The discovery/v1 EndpointSlice fields the registry works with, as decoded JSON. */
import type { ObjectMeta } from '../../../api/object-meta.js';

export interface EndpointSlice {
  metadata: ObjectMeta;
  addressType?: string;
  endpoints?: Endpoint[];
  ports?: EndpointSlicePort[];
}

export interface Endpoint {
  addresses?: string[];
  conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
  hostname?: string;
  nodeName?: string;
  zone?: string;
  deprecatedTopology?: Record<string, string>;
  hints?: { forZones?: { name?: string }[] };
}

export interface EndpointSlicePort {
  name?: string;
  protocol?: string;
  port?: number;
  appProtocol?: string;
}
