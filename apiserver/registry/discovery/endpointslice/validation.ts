/**
 * Kubernetes' ValidateEndpointSlice / ValidateEndpointSliceUpdate (discovery validation) without the
 * metadata: address type, at most 1000 endpoints of 1 to 100 addresses in the slice's format, node
 * names, hostnames, topology labels, zone hints, and at most 100 ports with unique names.
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, fieldPath, invalid, notSupported, required, tooMany } from '../../../api/field-errors.js';
import { isValidLabelValue, nameIsDNSSubdomain } from '../../../api/validation/names.js';
import { validateLabels } from '../../../api/validation/object-meta.js';
import { parseIP } from '../../shared/network/ip.js';
import {
  SUPPORTED_PORT_PROTOCOLS,
  isFullyQualifiedDomainName,
  isSupportedPortProtocol,
  validateDNS1123Label,
  validateNonSpecialIP,
  validateQualifiedName,
} from '../../shared/network/net-validation.js';
import type { Endpoint, EndpointSlice, EndpointSlicePort } from './types.js';

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 100;
const MAX_TOPOLOGY_LABELS = 16;
const MAX_ZONE_HINTS = 8;

function validateAddress(address: string, type: string, path: FieldPath): FieldError[] {
  const ip = parseIP(address);
  switch (type) {
    case 'IPv4':
      return [
        ...(ip?.family === 'IPv4' ? [] : [invalid(path, address, 'must be a valid IPv4 address')]),
        ...validateNonSpecialIP(address, path),
      ];
    case 'IPv6':
      return [
        ...(ip?.family === 'IPv6' ? [] : [invalid(path, address, 'must be a valid IPv6 address')]),
        ...validateNonSpecialIP(address, path),
      ];
    case 'FQDN':
      return isFullyQualifiedDomainName(address, path);
    default:
      return [];
  }
}

function validateEndpoint(endpoint: Endpoint, type: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const addresses = endpoint.addresses ?? [];
  const addressPath = path.child('addresses');
  if (addresses.length === 0) errs.push(required(addressPath, 'must contain at least 1 address'));
  else if (addresses.length > MAX_ADDRESSES) errs.push(tooMany(addressPath, addresses.length, MAX_ADDRESSES));
  addresses.forEach((a, i) => errs.push(...validateAddress(a, type, addressPath.index(i))));
  if (endpoint.nodeName !== undefined) {
    nameIsDNSSubdomain(endpoint.nodeName, false).forEach((m) => errs.push(invalid(path.child('nodeName'), endpoint.nodeName, m)));
  }
  const topology = endpoint.deprecatedTopology ?? {};
  const topologyPath = path.child('deprecatedTopology');
  if (Object.keys(topology).length > MAX_TOPOLOGY_LABELS)
    errs.push(tooMany(topologyPath, Object.keys(topology).length, MAX_TOPOLOGY_LABELS));
  errs.push(...validateLabels(topology, topologyPath));
  if (endpoint.hostname !== undefined) errs.push(...validateDNS1123Label(endpoint.hostname, path.child('hostname')));
  if (endpoint.hints !== undefined) {
    const zones = endpoint.hints.forZones ?? [];
    const zonesPath = path.child('hints', 'forZones');
    if (zones.length > MAX_ZONE_HINTS) errs.push(tooMany(zonesPath, zones.length, MAX_ZONE_HINTS));
    else {
      const seen = new Set<string>();
      zones.forEach((z, i) => {
        const name = z.name ?? '';
        const namePath = zonesPath.index(i).child('name');
        if (seen.has(name)) errs.push(duplicate(namePath, name));
        seen.add(name);
        isValidLabelValue(name).forEach((m) => errs.push(invalid(namePath, name, m)));
      });
    }
  }
  return errs;
}

function validatePorts(ports: EndpointSlicePort[]): FieldError[] {
  const path = fieldPath('ports');
  if (ports.length > MAX_PORTS) return [tooMany(path, ports.length, MAX_PORTS)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const at = path.index(i);
    // The name defaults to "": two unnamed ports are duplicates too.
    const name = p.name ?? '';
    if (name !== '') errs.push(...validateDNS1123Label(name, at.child('name')));
    if (names.has(name)) errs.push(duplicate(at.child('name'), name));
    names.add(name);
    // The protocol defaults to TCP, so only an unsupported one can arrive here.
    const protocol = p.protocol ?? '';
    if (!isSupportedPortProtocol(protocol)) errs.push(notSupported(at.child('protocol'), protocol, SUPPORTED_PORT_PROTOCOLS));
    if (p.appProtocol !== undefined) errs.push(...validateQualifiedName(p.appProtocol, at.child('appProtocol')));
  });
  return errs;
}

/** ValidateEndpointSlice without the metadata. */
export function validateEndpointSlice(obj: EndpointSlice): FieldError[] {
  const type = obj.addressType ?? '';
  const errs: FieldError[] = [];
  if (!type) errs.push(required('addressType', ''));
  else if (!ADDRESS_TYPES.includes(type)) errs.push(notSupported('addressType', type, ADDRESS_TYPES));
  const endpoints = obj.endpoints ?? [];
  if (endpoints.length > MAX_ENDPOINTS) errs.push(tooMany('endpoints', endpoints.length, MAX_ENDPOINTS));
  else endpoints.forEach((e, i) => errs.push(...validateEndpoint(e, type, fieldPath('endpoints').index(i))));
  errs.push(...validatePorts(obj.ports ?? []));
  return errs;
}

/** addressType never changes. */
export function validateEndpointSliceUpdate(obj: EndpointSlice, old: EndpointSlice): FieldError[] {
  return obj.addressType === old.addressType ? [] : [invalid('addressType', obj.addressType, 'field is immutable')];
}
