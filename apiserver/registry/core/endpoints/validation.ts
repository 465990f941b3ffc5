/** Kubernetes' ValidateEndpoints (core validation, 1.28) without the metadata, with its messages. */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { fieldPath, invalid, required } from '../../../api/field-errors.js';
import { nameIsDNSSubdomain } from '../../../api/validation/names.js';
import {
  isValidIP,
  isValidPortNum,
  validateDNS1123Label,
  validateNonSpecialIP,
  validateProtocol,
  validateQualifiedName,
} from '../../shared/network/net-validation.js';
import type { EndpointAddress, EndpointPort, Endpoints } from './types.js';

function validateAddress(address: EndpointAddress, path: FieldPath): FieldError[] {
  const ip = address.ip ?? '';
  const errs = isValidIP(ip).map((m) => invalid(path.child('ip'), ip, m));
  if (address.hostname) errs.push(...validateDNS1123Label(address.hostname, path.child('hostname')));
  if (address.nodeName !== undefined) {
    nameIsDNSSubdomain(address.nodeName, false).forEach((m) => errs.push(invalid(path.child('nodeName'), address.nodeName, m)));
  }
  errs.push(...validateNonSpecialIP(ip, path.child('ip')));
  return errs;
}

function validatePort(port: EndpointPort, requireName: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (requireName && !port.name) errs.push(required(path.child('name'), ''));
  else if (port.name) errs.push(...validateDNS1123Label(port.name, path.child('name')));
  isValidPortNum(port.port ?? 0).forEach((m) => errs.push(invalid(path.child('port'), port.port ?? 0, m)));
  errs.push(...validateProtocol(port.protocol, path.child('protocol')));
  if (port.appProtocol !== undefined) errs.push(...validateQualifiedName(port.appProtocol, path.child('appProtocol')));
  return errs;
}

/** validateEndpointSubsets: each subset has addresses, valid non-special IPs, named ports when several. */
export function validateEndpoints(obj: Endpoints): FieldError[] {
  const errs: FieldError[] = [];
  (obj.subsets ?? []).forEach((ss, i) => {
    const path = fieldPath('subsets').index(i);
    const ready = ss.addresses ?? [];
    const notReady = ss.notReadyAddresses ?? [];
    // Headless Services' endpoints may have no ports, but every subset needs an address.
    if (ready.length === 0 && notReady.length === 0) errs.push(required(path, 'must specify `addresses` or `notReadyAddresses`'));
    ready.forEach((a, j) => errs.push(...validateAddress(a, path.child('addresses').index(j))));
    notReady.forEach((a, j) => errs.push(...validateAddress(a, path.child('notReadyAddresses').index(j))));
    const ports = ss.ports ?? [];
    ports.forEach((p, j) => errs.push(...validatePort(p, ports.length > 1, path.child('ports').index(j))));
  });
  return errs;
}
