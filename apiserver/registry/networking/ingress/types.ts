/** The networking/v1 Ingress fields the registry works with, as decoded JSON. */
import type { LoadBalancerIngress } from '../../core/service/service-spec.js';

export interface IngressBackend {
  service?: { name?: string; port?: { name?: string; number?: number } };
  resource?: { apiGroup?: string; kind?: string; name?: string };
}

export interface HTTPIngressPath {
  path?: string;
  pathType?: string;
  backend?: IngressBackend;
}

export interface IngressRule {
  host?: string;
  http?: { paths?: HTTPIngressPath[] };
}

export interface IngressTLS {
  hosts?: string[];
  secretName?: string;
}

export interface IngressSpec {
  ingressClassName?: string;
  defaultBackend?: IngressBackend;
  tls?: IngressTLS[];
  rules?: IngressRule[];
}

export interface IngressStatus {
  loadBalancer?: { ingress?: LoadBalancerIngress[] };
}
