/** The core/v1 Endpoints fields the registry works with, as decoded JSON. */
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
