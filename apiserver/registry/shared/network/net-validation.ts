/**
 * The network-flavoured field checks Kubernetes' validation shares between Services, Endpoints,
 * EndpointSlices and Ingresses (apimachinery's util/validation and core validation helpers), with
 * Kubernetes' exact messages.
 */
import type { FieldError, FieldRef } from '../../../api/field-errors.js';
import { invalid, notSupported, required } from '../../../api/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, maxLenError, regexError } from '../../../api/validation/names.js';
import { isLinkLocalMulticast, isLinkLocalUnicast, isLoopback, isUnspecified, parseIP } from './ip.js';

/** The protocols of Service, Endpoints and EndpointSlice ports, sorted as Kubernetes lists them. */
export const SUPPORTED_PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'] as const;

/** Whether `protocol` is one of SUPPORTED_PORT_PROTOCOLS. */
export function isSupportedPortProtocol(protocol: string): protocol is (typeof SUPPORTED_PORT_PROTOCOLS)[number] {
  return SUPPORTED_PORT_PROTOCOLS.some((p) => p === protocol);
}

/** IsValidIP: the message list of a string that is not an IP address. */
export function isValidIP(value: string): string[] {
  return parseIP(value) ? [] : ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
}

/** IsValidPortNum: 1..65535. */
export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** IsValidPortName: an IANA_SVC_NAME (at most 15 characters, a-z 0-9 and single inner hyphens, one letter). */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.startsWith('-') || port.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

/**
 * ValidateNonSpecialIP: an address usable as an endpoint or external IP — not unspecified, loopback or
 * link-local.
 */
export function validateNonSpecialIP(value: string, path: FieldRef): FieldError[] {
  const ip = parseIP(value);
  if (!ip) return [invalid(path, value, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  if (isUnspecified(ip)) errs.push(invalid(path, value, `may not be unspecified (${value})`));
  if (isLoopback(ip)) errs.push(invalid(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (isLinkLocalUnicast(ip)) errs.push(invalid(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (isLinkLocalMulticast(ip)) errs.push(invalid(path, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

/** A port name or number (intstr): numbers must be valid ports, strings valid port names. */
export function validatePortNumOrName(port: number | string, path: FieldRef): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalid(path, port, m));
  return isValidPortName(port).map((m) => invalid(path, port, m));
}

/** A required port protocol from SUPPORTED_PORT_PROTOCOLS. */
export function validateProtocol(protocol: string | undefined, path: FieldRef): FieldError[] {
  if (!protocol) return [required(path, '')];
  if (!isSupportedPortProtocol(protocol)) return [notSupported(path, protocol, SUPPORTED_PORT_PROTOCOLS)];
  return [];
}

/** ValidateDNS1123Label as field errors. */
export function validateDNS1123Label(value: string, path: FieldRef): FieldError[] {
  return isDNS1123Label(value).map((m) => invalid(path, value, m));
}

/** ValidateDNS1123Subdomain as field errors. */
export function validateDNS1123Subdomain(value: string, path: FieldRef): FieldError[] {
  return isDNS1123Subdomain(value).map((m) => invalid(path, value, m));
}

/** ValidateQualifiedName as field errors (appProtocol, loadBalancerClass). */
export function validateQualifiedName(value: string, path: FieldRef): FieldError[] {
  return isQualifiedName(value).map((m) => invalid(path, value, m));
}

const WILDCARD_DNS1123_SUBDOMAIN_FMT = '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const WILDCARD_DNS1123_SUBDOMAIN_RE = new RegExp(`^${WILDCARD_DNS1123_SUBDOMAIN_FMT}$`);

/** IsWildcardDNS1123Subdomain: `*.` followed by a DNS subdomain (Ingress hosts). */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(maxLenError(253));
  if (!WILDCARD_DNS1123_SUBDOMAIN_RE.test(value)) {
    errs.push(
      regexError(
        "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
        WILDCARD_DNS1123_SUBDOMAIN_FMT,
        '*.example.com',
      ),
    );
  }
  return errs;
}

/** IsFullyQualifiedDomainName: a DNS subdomain of at least two labels (a trailing dot allowed). */
export function isFullyQualifiedDomainName(value: string, path: FieldRef): FieldError[] {
  if (value.length === 0) return [required(path, '')];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const subdomainErrs = isDNS1123Subdomain(name);
  if (subdomainErrs.length > 0) return [invalid(path, name, subdomainErrs.join(','))];
  const labels = name.split('.');
  if (labels.length < 2) return [invalid(path, name, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const labelErrs = isDNS1123Label(label);
    if (labelErrs.length > 0) return [invalid(path, label, labelErrs.join(','))];
  }
  return [];
}

const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH_RE = new RegExp(`^${HTTP_PATH_FMT}$`);

/** IsDomainPrefixedPath: `<DNS subdomain>/<http path>` (IngressClass controller). */
export function isDomainPrefixedPath(value: string, path: FieldRef): FieldError[] {
  if (value.length === 0) return [required(path, '')];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host.length === 0 || rest.length === 0) {
    return [invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errs = isDNS1123Subdomain(host).map((m) => invalid(path, host, m));
  if (!HTTP_PATH_RE.test(rest)) errs.push(invalid(path, rest, regexError('Invalid path', HTTP_PATH_FMT)));
  return errs;
}
