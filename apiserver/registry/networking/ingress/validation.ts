/**
 * Kubernetes' ValidateIngressCreate / ValidateIngressUpdate / ValidateIngressStatusUpdate
 * (networking validation, 1.28) without the metadata, with its messages.
 */
import type { ApiDomain } from '../../../api/domain.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { fieldPath, invalid, notSupported, required } from '../../../api/field-errors.js';
import { isDNS1123Subdomain, nameIsDNS1035Label, nameIsDNSSubdomain, validatePathSegmentName } from '../../../api/validation/names.js';
import { parseIP } from '../../shared/network/ip.js';
import { isValidPortName, isValidPortNum, isWildcardDNS1123Subdomain } from '../../shared/network/net-validation.js';
import { validateLoadBalancerStatus } from '../../shared/network/load-balancer-status.js';
import type { HTTPIngressPath, Ingress, IngressBackend, IngressRule, IngressSpec } from '../../../api/generated/types.js';

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];

/** The legacy class annotation, under the domain's prefix (kubernetes.io/ingress.class in Kubernetes). */
export function ingressClassAnnotation(domain: ApiDomain): string {
  return `${domain.labelPrefix}/ingress.class`;
}

/** A rule's host: a DNS name or a wildcard one, never an IP address. */
function validateHost(host: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (parseIP(host)) errs.push(invalid(path, host, 'must be a DNS name, not an IP address'));
  const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
  msgs.forEach((m) => errs.push(invalid(path, host, m)));
  return errs;
}

/** validateIngressBackend: exactly one of service (name, and a port name or number) and resource. */
function validateBackend(backend: IngressBackend | undefined, path: FieldPath): FieldError[] {
  const { service, resource } = backend ?? {};
  if (service && resource) return [invalid(path, '', 'cannot set both resource and service backends')];
  if (resource) {
    const errs: FieldError[] = [];
    const at = path.child('resource');
    if (resource.apiGroup !== undefined)
      isDNS1123Subdomain(resource.apiGroup).forEach((m) => errs.push(invalid(at.child('apiGroup'), resource.apiGroup, m)));
    for (const f of ['kind', 'name'] as const) {
      const v = resource[f] ?? '';
      if (!v) errs.push(required(at.child(f), ''));
      else validatePathSegmentName(v, false).forEach((m) => errs.push(invalid(at.child(f), v, m)));
    }
    return errs;
  }
  if (!service) return [invalid(path, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  const name = service.name ?? '';
  if (!name) errs.push(required(path.child('service', 'name'), ''));
  else nameIsDNS1035Label(name, false).forEach((m) => errs.push(invalid(path.child('service', 'name'), name, m)));
  const portName = service.port?.name ?? '';
  const portNumber = service.port?.number ?? 0;
  if (portName && portNumber) errs.push(invalid(path, '', 'cannot set both port name & port number'));
  else if (portName) isValidPortName(portName).forEach((m) => errs.push(invalid(path.child('service', 'port', 'name'), portName, m)));
  else if (portNumber)
    isValidPortNum(portNumber).forEach((m) => errs.push(invalid(path.child('service', 'port', 'number'), portNumber, m)));
  else errs.push(required(path, 'port name or number is required'));
  return errs;
}

/** validateHTTPIngressPath: a pathType, absolute and clean paths for Exact/Prefix, a backend. */
function validatePath(p: HTTPIngressPath, path: FieldPath): FieldError[] {
  if (p.pathType === undefined) return [required(path.child('pathType'), 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = p.path ?? '';
  if (p.pathType === 'Exact' || p.pathType === 'Prefix') {
    if (!value.startsWith('/')) errs.push(invalid(path.child('path'), value, 'must be an absolute path'));
    if (value) {
      for (const seq of INVALID_PATH_SEQUENCES)
        if (value.includes(seq)) errs.push(invalid(path.child('path'), value, `must not contain '${seq}'`));
      for (const suffix of INVALID_PATH_SUFFIXES)
        if (value.endsWith(suffix)) errs.push(invalid(path.child('path'), value, `cannot end with '${suffix}'`));
    }
  } else if (p.pathType === 'ImplementationSpecific') {
    if (value && !value.startsWith('/')) errs.push(invalid(path.child('path'), value, 'must be an absolute path'));
  } else errs.push(notSupported(path.child('pathType'), p.pathType, PATH_TYPES));
  errs.push(...validateBackend(p.backend, path.child('backend')));
  return errs;
}

function validateRule(rule: IngressRule, path: FieldPath): FieldError[] {
  const errs = rule.host ? validateHost(rule.host, path.child('host')) : [];
  if (rule.http) {
    const paths = rule.http.paths ?? [];
    if (paths.length === 0) errs.push(required(path.child('http', 'paths'), ''));
    paths.forEach((p, i) => errs.push(...validatePath(p, path.child('http', 'paths').index(i))));
  }
  return errs;
}

/** ValidateIngressSpec. */
function validateSpec(spec: IngressSpec): FieldError[] {
  const path = fieldPath('spec');
  const errs: FieldError[] = [];
  const rules = spec.rules ?? [];
  if (rules.length === 0 && !spec.defaultBackend)
    errs.push(invalid(path, spec.rules, 'either `defaultBackend` or `rules` must be specified'));
  if (spec.defaultBackend) errs.push(...validateBackend(spec.defaultBackend, path.child('defaultBackend')));
  rules.forEach((r, i) => errs.push(...validateRule(r, path.child('rules').index(i))));
  (spec.tls ?? []).forEach((tls, i) => {
    const at = path.child('tls').index(i);
    (tls.hosts ?? []).forEach((host, j) => {
      const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      msgs.forEach((m) => errs.push(invalid(at.child('hosts').index(j), host, m)));
    });
    if (tls.secretName)
      nameIsDNSSubdomain(tls.secretName, false).forEach((m) => errs.push(invalid(at.child('secretName'), tls.secretName, m)));
  });
  if (spec.ingressClassName !== undefined) {
    nameIsDNSSubdomain(spec.ingressClassName, false).forEach((m) =>
      errs.push(invalid(path.child('ingressClassName'), spec.ingressClassName, m)),
    );
  }
  return errs;
}

/** ValidateIngressSpec: the rules shared by create and update. */
export function validateIngress(obj: Ingress): FieldError[] {
  return validateSpec(obj.spec ?? {});
}

/** ValidateIngressCreate's extra rule: the class annotation, when set with ingressClassName, agrees with it. */
export function validateIngressClassAnnotation(obj: Ingress, domain: ApiDomain): FieldError[] {
  const spec = obj.spec ?? {};
  const key = ingressClassAnnotation(domain);
  const annotation = obj.metadata.annotations?.[key];
  if (annotation === undefined || spec.ingressClassName === undefined || annotation === spec.ingressClassName) return [];
  return [invalid(fieldPath('annotations').child(key), annotation, 'must match `ingressClassName` when both are specified')];
}

/** ValidateIngressStatusUpdate: load-balancer ingress IPs and hostnames. */
export function validateIngressStatus(obj: Ingress): FieldError[] {
  return validateLoadBalancerStatus(obj.status?.loadBalancer?.ingress, fieldPath('status', 'loadBalancer'));
}
