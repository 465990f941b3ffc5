/**
 * The linked clusterIP / clusterIPs / ipFamilies / ipFamilyPolicy rules of a Service: Kubernetes'
 * ValidateServiceClusterIPsRelatedFields and, on update, the dual-stack upgrade/downgrade rules.
 */
import type { FieldError } from '../../../api/field-errors.js';
import { duplicate, fieldPath, invalid, notSupported, required } from '../../../api/field-errors.js';
import { familyOf } from '../../shared/network/ip.js';
import { isValidIP } from '../../shared/network/net-validation.js';
import type { ServiceSpec } from './service-spec.js';
import { CLUSTER_IP_NONE, EXTERNAL_NAME, PREFER_DUAL_STACK, REQUIRE_DUAL_STACK, SINGLE_STACK, isHeadless } from './service-spec.js';

const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = [PREFER_DUAL_STACK, REQUIRE_DUAL_STACK, SINGLE_STACK];
const CLUSTER_IPS = fieldPath('spec', 'clusterIPs');
const IP_FAMILIES_PATH = fieldPath('spec', 'ipFamilies');
const POLICY_PATH = fieldPath('spec', 'ipFamilyPolicy');

/** ValidateServiceClusterIPsRelatedFields (ExternalName Services are checked elsewhere). */
export function validateClusterIPsRelatedFields(spec: ServiceSpec): FieldError[] {
  if (spec.type === EXTERNAL_NAME) return [];
  const errs: FieldError[] = [];
  const clusterIPs = spec.clusterIPs ?? [];
  const families = spec.ipFamilies ?? [];
  if (spec.clusterIP) {
    if (clusterIPs.length === 0) errs.push(required(CLUSTER_IPS, ''));
    else if (clusterIPs[0] !== spec.clusterIP) errs.push(invalid(CLUSTER_IPS, clusterIPs, 'first value must match `clusterIP`'));
  } else if (clusterIPs.length > 0) {
    errs.push(invalid(CLUSTER_IPS, clusterIPs, 'must be empty when `clusterIP` is not specified'));
  }

  const seen = new Set<string>();
  families.forEach((family, i) => {
    if (!IP_FAMILIES.includes(family)) errs.push(notSupported(IP_FAMILIES_PATH.index(i), family, IP_FAMILIES));
    if (seen.has(family)) errs.push(duplicate(IP_FAMILIES_PATH.index(i), family));
    seen.add(family);
  });
  if (spec.ipFamilyPolicy !== undefined && !IP_FAMILY_POLICIES.includes(spec.ipFamilyPolicy)) {
    errs.push(notSupported(POLICY_PATH, spec.ipFamilyPolicy, IP_FAMILY_POLICIES));
  }

  let hasInvalidIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === CLUSTER_IP_NONE) {
      if (clusterIPs.length > 1) {
        hasInvalidIPs = true;
        errs.push(invalid(CLUSTER_IPS, clusterIPs, "'None' must be the first and only value"));
      }
      return;
    }
    const msgs = isValidIP(ip);
    if (msgs.length > 0) hasInvalidIPs = true;
    msgs.forEach((m) => errs.push(invalid(CLUSTER_IPS.index(i), ip, m)));
  });
  if (clusterIPs.length > 2) errs.push(invalid(CLUSTER_IPS, clusterIPs, 'may only hold up to 2 values'));
  // Further checks would only repeat what an invalid IP already says.
  if (hasInvalidIPs) return errs;

  if (clusterIPs.length > 1 && new Set(clusterIPs.map(familyOf)).size < 2) {
    errs.push(invalid(CLUSTER_IPS, clusterIPs, 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadless(spec)) {
    clusterIPs.slice(0, families.length).forEach((ip, i) => {
      const want = families[i];
      if ((want === 'IPv4' || want === 'IPv6') && familyOf(ip) !== want) {
        errs.push(invalid(CLUSTER_IPS.index(i), ip, `expected an ${want} value as indicated by \`ipFamilies[${i}]\``));
      }
    });
  }
  return errs;
}

/** validateUpgradeDowngradeClusterIPs: the primary IP never changes; dropping the secondary needs SingleStack. */
export function validateClusterIPsUpdate(spec: ServiceSpec, old: ServiceSpec): FieldError[] {
  if (spec.type === EXTERNAL_NAME || old.type === EXTERNAL_NAME) return [];
  if (isHeadless(spec) && isHeadless(old)) return [];
  const ips = spec.clusterIPs ?? [];
  const oldIPs = old.clusterIPs ?? [];
  const errs: FieldError[] = [];
  const changed = () => invalid(CLUSTER_IPS.index(0), ips, 'may not change once set');
  if (oldIPs.length === ips.length) {
    oldIPs.forEach((ip, i) => {
      if (ip !== ips[i]) errs.push(invalid(CLUSTER_IPS.index(i), ips, 'may not change once set'));
    });
  } else if (oldIPs.length > ips.length) {
    if (ips.length === 0) errs.push(invalid(CLUSTER_IPS.index(0), ips, 'primary clusterIP can not be unset'));
    if (oldIPs.length > 0 && ips.length > 0 && ips[0] !== oldIPs[0]) errs.push(changed());
    if (ips.length === 1 && spec.ipFamilyPolicy !== SINGLE_STACK) {
      errs.push(invalid(POLICY_PATH, spec.ipFamilyPolicy, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) {
    errs.push(changed());
  }
  return errs;
}

/** validateUpgradeDowngradeIPFamilies: the primary family never changes; dropping the secondary needs SingleStack. */
export function validateIPFamiliesUpdate(spec: ServiceSpec, old: ServiceSpec): FieldError[] {
  if (spec.type === EXTERNAL_NAME || old.type === EXTERNAL_NAME) return [];
  // Headless Services may change families; so may a Service becoming or ceasing to be headless.
  if (isHeadless(spec) || isHeadless(old)) return [];
  const families = spec.ipFamilies ?? [];
  const oldFamilies = old.ipFamilies ?? [];
  const errs: FieldError[] = [];
  if (oldFamilies.length === families.length) {
    oldFamilies.forEach((f, i) => {
      if (f !== families[i]) errs.push(invalid(IP_FAMILIES_PATH.index(0), families, 'may not change once set'));
    });
  } else if (oldFamilies.length > families.length) {
    if ((spec.clusterIPs ?? []).length === 0) errs.push(invalid(IP_FAMILIES_PATH.index(0), families, 'primary ipFamily can not be unset'));
    if (families.length > 0 && families[0] !== oldFamilies[0])
      errs.push(invalid(IP_FAMILIES_PATH.index(0), spec.clusterIPs, 'may not change once set'));
    if (families.length === 1 && spec.ipFamilyPolicy !== SINGLE_STACK) {
      errs.push(invalid(POLICY_PATH, spec.ipFamilyPolicy, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (oldFamilies.length > 0 && families.length > 0 && families[0] !== oldFamilies[0]) {
    errs.push(invalid(IP_FAMILIES_PATH.index(0), spec.clusterIPs, 'may not change once set'));
  }
  return errs;
}
