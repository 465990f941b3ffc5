/**
 * `deprecatedTopology` is read-only in discovery/v1 (the only version served): a write clears it,
 * unless the endpoints did not change. A node name kept there by an older slice moves into
 * `nodeName` when the endpoint has none, so partial updates keep it (Kubernetes' dropTopologyOnV1).
 */
import { nameIsDNSSubdomain } from '../../../api/validation/names.js';

import type { Endpoint } from './types.js';

/** The part of an EndpointSlice this rule reads. */
export interface SliceEndpoints {
  endpoints?: Endpoint[];
}

/** `hostnameLabel` is the domain's `<label prefix>/hostname` (kubernetes.io/hostname in Kubernetes). */
export function dropDeprecatedTopology(hostnameLabel: string, obj: SliceEndpoints, old?: SliceEndpoints): void {
  if (old && JSON.stringify(old.endpoints ?? []) === JSON.stringify(obj.endpoints ?? [])) return;
  const previous = new Set((old?.endpoints ?? []).map((e) => e.deprecatedTopology?.[hostnameLabel]).filter((n) => n));
  for (const ep of obj.endpoints ?? []) {
    const node = ep.deprecatedTopology?.[hostnameLabel];
    if (ep.nodeName === undefined && node && previous.has(node) && nameIsDNSSubdomain(node, false).length === 0) ep.nodeName = node;
    delete ep.deprecatedTopology;
  }
}

/** spec.addressType FQDN is deprecated (Kubernetes warns on create). */
export function addressTypeWarnings(obj: { addressType?: string }): string[] {
  return obj.addressType === 'FQDN' ? ['spec.addressType: FQDN endpoints are deprecated'] : [];
}
