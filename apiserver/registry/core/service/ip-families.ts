/**
 * Kubernetes' initIPFamilyFields: ipFamilyPolicy and ipFamilies are defaulted from the cluster's
 * configured families (the first --service-cluster-ip-range's family is the default) and the given
 * cluster IPs, and what the cluster cannot serve is refused. Runs in the allocation hooks, because it
 * depends on the server's configuration.
 */
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, invalid } from '../../../api/field-errors.js';
import type { IPFamily } from '../../shared/network/ip.js';
import { familyOf } from '../../shared/network/ip.js';
import type { ServiceSpec } from './service-spec.js';
import {
  CLUSTER_IP,
  CLUSTER_IP_NONE,
  EXTERNAL_NAME,
  LOAD_BALANCER,
  NODE_PORT,
  PREFER_DUAL_STACK,
  REQUIRE_DUAL_STACK,
  SINGLE_STACK,
  sameList,
} from './service-spec.js';

const POLICY_PATH = fieldPath('spec', 'ipFamilyPolicy');

function otherFamily(family: string): IPFamily {
  return family === 'IPv4' ? 'IPv6' : 'IPv4';
}

/** Headless without a selector: its endpoints may be of any family, so it defaults to dual-stack. */
function headlessWithoutSelector(spec: ServiceSpec): boolean {
  return spec.clusterIP === CLUSTER_IP_NONE && Object.keys(spec.selector ?? {}).length === 0;
}

/**
 * An update of a PreferDualStack Service that changes none of its IP fields is left alone, so a
 * cluster turning dual- or single-stack never upgrades or downgrades it by itself.
 */
export function isUnchangedPreferDualStack(spec: ServiceSpec, old: ServiceSpec | null): boolean {
  if (!old || spec.ipFamilyPolicy === undefined || old.type !== spec.type) return false;
  if (![CLUSTER_IP, NODE_PORT, LOAD_BALANCER].includes(spec.type ?? '')) return false;
  if (spec.ipFamilyPolicy !== PREFER_DUAL_STACK) return false;
  if (old.ipFamilyPolicy !== undefined && old.ipFamilyPolicy !== PREFER_DUAL_STACK) return false;
  return sameList(old.clusterIPs, spec.clusterIPs) && sameList(old.ipFamilies, spec.ipFamilies);
}

/** Fills ipFamilyPolicy and ipFamilies of `spec` in place; returns the errors that refuse it. */
export function initIPFamilyFields(spec: ServiceSpec, old: ServiceSpec | null, configured: readonly IPFamily[]): FieldError[] {
  if (spec.type === EXTERNAL_NAME || isUnchangedPreferDualStack(spec, old)) return [];
  if (spec.ipFamilyPolicy === undefined) {
    if (old?.ipFamilyPolicy !== undefined) spec.ipFamilyPolicy = old.ipFamilyPolicy;
    else spec.ipFamilyPolicy = headlessWithoutSelector(spec) ? REQUIRE_DUAL_STACK : SINGLE_STACK;
  }
  const policy = spec.ipFamilyPolicy;
  const errs: FieldError[] = [];
  if (old) {
    if (policy === SINGLE_STACK) {
      // Setting SingleStack without touching the lists releases the secondary IP and family.
      if (sameList(old.clusterIPs, spec.clusterIPs) && (spec.clusterIPs?.length ?? 0) > 1) spec.clusterIPs = spec.clusterIPs!.slice(0, 1);
      if (sameList(old.ipFamilies, spec.ipFamilies) && (spec.ipFamilies?.length ?? 0) > 1) spec.ipFamilies = spec.ipFamilies!.slice(0, 1);
    } else {
      const ips = spec.clusterIPs?.length ?? 0;
      const families = spec.ipFamilies?.length ?? 0;
      if (ips > 0 && ips < (old.clusterIPs?.length ?? 0))
        errs.push(invalid(POLICY_PATH, policy, "must be 'SingleStack' to release the secondary cluster IP"));
      if (families > 0 && families < (old.ipFamilies?.length ?? 0))
        errs.push(invalid(POLICY_PATH, policy, "must be 'SingleStack' to release the secondary IP family"));
    }
  }
  if (policy === SINGLE_STACK) {
    if (spec.clusterIPs?.length === 2)
      errs.push(invalid(POLICY_PATH, policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    if (spec.ipFamilies?.length === 2)
      errs.push(invalid(POLICY_PATH, policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
  }
  // Families follow the given cluster IPs where they were not given.
  const families = (spec.ipFamilies ??= []);
  const clusterIPs = spec.clusterIPs ?? [];
  for (let i = 0; i < clusterIPs.length && clusterIPs[i] !== CLUSTER_IP_NONE; i++) {
    if (i < families.length) continue;
    const family = familyOf(clusterIPs[i])!;
    if (configured.includes(family)) families.push(family);
    else errs.push(invalid(fieldPath('spec', 'clusterIPs').index(i), clusterIPs, `${family} is not configured on this cluster`));
  }
  if (errs.length > 0) return errs;

  if (headlessWithoutSelector(spec)) {
    // Allowed even where the cluster has one family: such a Service gets no cluster IP.
    if (families.length === 0) families.push(configured[0]);
    if (families.length < 2 && policy !== SINGLE_STACK) families.push(otherFamily(families[0]));
    return [];
  }
  if (policy === REQUIRE_DUAL_STACK && configured.length < 2)
    errs.push(invalid(POLICY_PATH, policy, 'this cluster is not configured for dual-stack services'));
  families.forEach((f, i) => {
    if (!configured.some((c) => c === f)) errs.push(invalid(fieldPath('spec', 'ipFamilies').index(i), f, 'not configured on this cluster'));
  });
  if (errs.length > 0) return errs;
  if (families.length === 0) families.push(configured[0]);
  if (policy !== SINGLE_STACK && families.length === 1 && configured.length === 2) families.push(otherFamily(families[0]));
  return [];
}
