/**
 * Kubernetes' ValidateService / ValidateServiceUpdate (core validation, 1.28), with its messages.
 * Values the allocation hooks fill in after validation (cluster IPs, IP families and policy, node
 * ports, the health-check node port) may still be unset here; everything else is checked.
 */
import type { Service } from '../../../api/generated/types.js';
import type { ApiDomain } from '../../../api/domain.js';
import type { FieldError } from '../../../api/field-errors.js';
import { duplicate, fieldPath, forbidden, invalid, notSupported, required } from '../../../api/field-errors.js';
import { validateLabels } from '../../../api/validation/object-meta.js';
import { parseCIDR } from '../../shared/network/ip.js';
import {
  isValidIP,
  isValidPortNum,
  validateDNS1123Label,
  validateDNS1123Subdomain,
  validateNonSpecialIP,
  validatePortNumOrName,
  validateProtocol,
  validateQualifiedName,
} from '../../shared/network/net-validation.js';
import type { ServicePort, ServiceSpec } from './service-spec.js';
import {
  CLUSTER_IP,
  EXTERNAL_NAME,
  LOAD_BALANCER,
  NODE_PORT,
  externallyAccessible,
  isHeadless,
  needsHealthCheck,
  specOf,
} from './service-spec.js';
import { validateClusterIPsRelatedFields, validateClusterIPsUpdate, validateIPFamiliesUpdate } from './validate-cluster-ips.js';

const SPEC = fieldPath('spec');
const SERVICE_TYPES = [CLUSTER_IP, EXTERNAL_NAME, LOAD_BALANCER, NODE_PORT];
const SESSION_AFFINITIES = ['ClientIP', 'None'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
/** MaxClientIPServiceAffinitySeconds: one day. */
const MAX_AFFINITY_SECONDS = 86400;

/** The Service annotations Kubernetes validates, under the domain's prefix. */
function serviceAnnotations(domain: ApiDomain) {
  return {
    topologyMode: `service.${domain.labelPrefix}/topology-mode`,
    topologyAwareHints: `service.${domain.labelPrefix}/topology-aware-hints`,
    loadBalancerSourceRanges: `service.beta.${domain.labelPrefix}/load-balancer-source-ranges`,
  };
}

function validatePorts(spec: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  const ports = spec.ports ?? [];
  const names = new Set<string>();
  ports.forEach((p: ServicePort, i) => {
    const path = SPEC.child('ports').index(i);
    const name = p.name ?? '';
    if (ports.length > 1 && name === '') errs.push(required(path.child('name'), ''));
    else if (name !== '') {
      errs.push(...validateDNS1123Label(name, path.child('name')));
      if (names.has(name)) errs.push(duplicate(path.child('name'), name));
      names.add(name);
    }
    isValidPortNum(p.port ?? 0).forEach((m) => errs.push(invalid(path.child('port'), p.port ?? 0, m)));
    errs.push(...validateProtocol(p.protocol, path.child('protocol')));
    errs.push(...validatePortNumOrName(p.targetPort ?? 0, path.child('targetPort')));
    if (p.appProtocol !== undefined) errs.push(...validateQualifiedName(p.appProtocol, path.child('appProtocol')));
  });
  return errs;
}

function validateTypeSpecific(spec: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  const headless = isHeadless(spec);
  if (spec.type === LOAD_BALANCER || spec.type === NODE_PORT) {
    if (headless) errs.push(invalid(SPEC.child('clusterIPs').index(0), 'None', `may not be set to 'None' for ${spec.type} services`));
  } else if (spec.type === EXTERNAL_NAME) {
    if ((spec.clusterIPs ?? []).length > 0) errs.push(forbidden(SPEC.child('clusterIPs'), 'may not be set for ExternalName services'));
    if ((spec.ipFamilies ?? []).length > 0) errs.push(forbidden(SPEC.child('ipFamilies'), 'may not be set for ExternalName services'));
    if (spec.ipFamilyPolicy !== undefined) errs.push(forbidden(SPEC.child('ipFamilyPolicy'), 'may not be set for ExternalName services'));
    // The value (a CNAME) may end with a dot to mark it fully qualified.
    const cname = (spec.externalName ?? '').replace(/\.$/, '');
    if (cname) errs.push(...validateDNS1123Subdomain(cname, SPEC.child('externalName')));
    else errs.push(required(SPEC.child('externalName'), ''));
  }
  return errs;
}

function validateSessionAffinity(spec: ServiceSpec): FieldError[] {
  const path = SPEC.child('sessionAffinityConfig');
  if (!spec.sessionAffinity) return [required(SPEC.child('sessionAffinity'), '')];
  if (!SESSION_AFFINITIES.includes(spec.sessionAffinity))
    return [notSupported(SPEC.child('sessionAffinity'), spec.sessionAffinity, SESSION_AFFINITIES)];
  if (spec.sessionAffinity === 'None') {
    return spec.sessionAffinityConfig !== undefined ? [forbidden(path, 'must not be set when session affinity is None')] : [];
  }
  const why = 'when session affinity type is ClientIP';
  const config = spec.sessionAffinityConfig;
  if (!config) return [required(path, why)];
  if (!config.clientIP) return [required(path.child('clientIP'), why)];
  const timeout = config.clientIP.timeoutSeconds;
  if (timeout === undefined) return [required(path.child('clientIP', 'timeoutSeconds'), why)];
  if (timeout <= 0 || timeout > MAX_AFFINITY_SECONDS) {
    return [invalid(path.child('clientIP', 'timeoutSeconds'), timeout, `must be greater than 0 and less than ${MAX_AFFINITY_SECONDS}`)];
  }
  return [];
}

function validateNodePorts(spec: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  const ports = spec.ports ?? [];
  if (spec.type === CLUSTER_IP) {
    ports.forEach((p, i) => {
      if (p.nodePort) errs.push(forbidden(SPEC.child('ports').index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (!p.nodePort) return;
    const key = `${p.protocol}/${p.nodePort}`;
    if (nodePorts.has(key)) errs.push(duplicate(SPEC.child('ports').index(i).child('nodePort'), p.nodePort));
    nodePorts.add(key);
  });
  const servicePorts = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${p.protocol}/${p.port}`;
    if (servicePorts.has(key)) errs.push(duplicate(SPEC.child('ports').index(i), { protocol: p.protocol, port: p.port }));
    servicePorts.add(key);
  });
  return errs;
}

/** The spec field or, without it, the annotation; each entry must be a CIDR (entries may be space-padded). */
function validateSourceRanges(obj: Service, spec: ServiceSpec, annotationKey: string): FieldError[] {
  const fromSpec = spec.loadBalancerSourceRanges ?? [];
  const annotation = obj.metadata.annotations?.[annotationKey];
  if (fromSpec.length === 0 && annotation === undefined) return [];
  const errs: FieldError[] = [];
  const path = fromSpec.length > 0 ? SPEC.child('LoadBalancerSourceRanges') : fieldPath('metadata', 'annotations').key(annotationKey);
  const shown = fromSpec.length > 0 ? `[${fromSpec.join(' ')}]` : annotation!;
  if (spec.type !== LOAD_BALANCER) errs.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
  const entries = fromSpec.length > 0 ? fromSpec : (annotation!.trim() || '0.0.0.0/0').split(',');
  if (entries.some((e) => !parseCIDR(e.trim()))) {
    errs.push(invalid(path, shown, 'must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 '));
  }
  return errs;
}

function validateTrafficPolicies(spec: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  const etp = spec.externalTrafficPolicy ?? '';
  if (!externallyAccessible(spec)) {
    if (etp !== '') errs.push(invalid(SPEC.child('externalTrafficPolicy'), etp, 'may only be set for externally-accessible services'));
  } else if (etp === '') errs.push(required(SPEC.child('externalTrafficPolicy'), ''));
  else if (!TRAFFIC_POLICIES.includes(etp)) errs.push(notSupported(SPEC.child('externalTrafficPolicy'), etp, TRAFFIC_POLICIES));

  // An unset health-check node port of a Service that needs one is allocated after validation.
  const hc = spec.healthCheckNodePort ?? 0;
  if (!needsHealthCheck(spec)) {
    if (hc !== 0)
      errs.push(
        invalid(
          SPEC.child('healthCheckNodePort'),
          hc,
          "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ),
      );
  } else if (hc !== 0) {
    isValidPortNum(hc).forEach((m) => errs.push(invalid(SPEC.child('healthCheckNodePort'), hc, m)));
  }

  const itp = spec.internalTrafficPolicy;
  if (itp === undefined && (spec.type === NODE_PORT || spec.type === LOAD_BALANCER || spec.type === CLUSTER_IP)) {
    errs.push(required(SPEC.child('internalTrafficPolicy'), ''));
  }
  if (itp !== undefined && !TRAFFIC_POLICIES.includes(itp))
    errs.push(notSupported(SPEC.child('internalTrafficPolicy'), itp, TRAFFIC_POLICIES));
  return errs;
}

/** validateLoadBalancerClassField on a Service: a qualified name, and only on LoadBalancer Services. */
function validateLoadBalancerClass(spec: ServiceSpec): FieldError[] {
  const path = SPEC.child('loadBalancerClass');
  if (spec.loadBalancerClass === undefined) return [];
  if (spec.type === LOAD_BALANCER) return validateQualifiedName(spec.loadBalancerClass, path);
  return [forbidden(path, "may only be used when `type` is 'LoadBalancer'")];
}

/** ValidateService without the metadata (the store checks that). */
export function validateService(obj: Service, domain: ApiDomain): FieldError[] {
  const spec = specOf(obj);
  const annotations = serviceAnnotations(domain);
  const errs: FieldError[] = [];
  const meta = obj.metadata.annotations ?? {};
  const mode = meta[annotations.topologyMode];
  const hints = meta[annotations.topologyAwareHints];
  if (mode !== undefined && hints !== undefined && mode !== hints) {
    errs.push(
      invalid(
        fieldPath('metadata', 'annotations').key(annotations.topologyMode),
        mode,
        `must match annotations[${annotations.topologyAwareHints}] when both are specified`,
      ),
    );
  }
  if ((spec.ports ?? []).length === 0 && !isHeadless(spec) && spec.type !== EXTERNAL_NAME) errs.push(required(SPEC.child('ports'), ''));
  errs.push(...validateTypeSpecific(spec));
  errs.push(...validatePorts(spec));
  if (spec.selector !== undefined) errs.push(...validateLabels(spec.selector, SPEC.child('selector')));
  errs.push(...validateSessionAffinity(spec));
  errs.push(...validateClusterIPsRelatedFields(spec));
  (spec.externalIPs ?? []).forEach((ip, i) => {
    const path = SPEC.child('externalIPs').index(i);
    const msgs = isValidIP(ip);
    if (msgs.length > 0) msgs.forEach((m) => errs.push(invalid(path, ip, m)));
    else errs.push(...validateNonSpecialIP(ip, path));
  });
  if (!spec.type) errs.push(required(SPEC.child('type'), ''));
  else if (!SERVICE_TYPES.includes(spec.type)) errs.push(notSupported(SPEC.child('type'), spec.type, SERVICE_TYPES));
  errs.push(...validateNodePorts(spec));
  errs.push(...validateSourceRanges(obj, spec, annotations.loadBalancerSourceRanges));
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.type !== LOAD_BALANCER) {
    errs.push(forbidden(SPEC.child('allocateLoadBalancerNodePorts'), "may only be used when `type` is 'LoadBalancer'"));
  }
  // Kubernetes reports this one without the "spec." prefix.
  if (spec.type === LOAD_BALANCER && spec.allocateLoadBalancerNodePorts === undefined)
    errs.push(required('allocateLoadBalancerNodePorts', ''));
  errs.push(...validateLoadBalancerClass(spec));
  errs.push(...validateTrafficPolicies(spec));
  return errs;
}

/** The update-only rules of ValidateServiceUpdate (validateService runs as well). */
export function validateServiceUpdate(obj: Service, old: Service): FieldError[] {
  const spec = specOf(obj);
  const oldSpec = specOf(old);
  const errs = [...validateClusterIPsUpdate(spec, oldSpec), ...validateIPFamiliesUpdate(spec, oldSpec)];
  if (oldSpec.type === LOAD_BALANCER && spec.type === LOAD_BALANCER && oldSpec.loadBalancerClass !== spec.loadBalancerClass) {
    errs.push(invalid(SPEC.child('loadBalancerClass'), spec.loadBalancerClass, 'may not change once set'));
  }
  if (needsHealthCheck(oldSpec) && needsHealthCheck(spec) && spec.healthCheckNodePort !== oldSpec.healthCheckNodePort) {
    errs.push(forbidden(SPEC.child('healthCheckNodePort'), 'field is immutable'));
  }
  return errs;
}
