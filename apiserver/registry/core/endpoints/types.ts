/** The core/v1 Endpoints fields the registry works with, as decoded JSON. */
import type { ObjectMeta } from '../../../api/object-meta.js';

export interface Endpoints {
  metadata: ObjectMeta;
  subsets?: EndpointSubset[];
}

export interface EndpointAddress {
  ip?: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: { uid?: string; [field: string]: unknown };
}

export interface EndpointPort {
  name?: string;
  port?: number;
  protocol?: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}
