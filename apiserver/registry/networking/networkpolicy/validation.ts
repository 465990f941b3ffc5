/**
 * ValidateNetworkPolicySpec (networking/v1, Kubernetes 1.28): a valid pod selector; rule ports with a
 * supported protocol, a valid port number or name and an endPort only after a numeric port; peers
 * that name exactly one kind of peer (selectors may combine, an ipBlock stands alone) with a valid
 * CIDR whose exceptions are strict subsets; at most the two policy types Ingress and Egress.
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { fieldPath, forbidden, invalid, notSupported, required } from '../../../api/field-errors.js';
import type { IPBlock, NetworkPolicyPeer, NetworkPolicyPort, NetworkPolicySpec } from '../../../api/generated/types.js';
import { validateLabelSelector } from '../../shared/pod-spec/label-selector.js';
import { isValidPortName, isValidPortNum } from '../../shared/network/net-validation.js';
import { cidrContains, parseCIDR } from '../../shared/network/ip.js';

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];

export function validateNetworkPolicyPort(port: NetworkPolicyPort, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (port.protocol !== undefined && !PROTOCOLS.includes(port.protocol)) {
    errs.push(notSupported(path.child('protocol'), port.protocol, PROTOCOLS));
  }
  if (port.port === undefined) {
    if (port.endPort !== undefined)
      errs.push(invalid(path.child('endPort'), port.endPort, 'may not be specified when `port` is not specified'));
  } else if (typeof port.port === 'number') {
    for (const msg of isValidPortNum(port.port)) errs.push(invalid(path.child('port'), port.port, msg));
    if (port.endPort !== undefined) {
      if (port.endPort < port.port) errs.push(invalid(path.child('endPort'), port.port, 'must be greater than or equal to `port`'));
      for (const msg of isValidPortNum(port.endPort)) errs.push(invalid(path.child('endPort'), port.endPort, msg));
    }
  } else {
    if (port.endPort !== undefined)
      errs.push(invalid(path.child('endPort'), port.endPort, 'may not be specified when `port` is non-numeric'));
    for (const msg of isValidPortName(port.port)) errs.push(invalid(path.child('port'), port.port, msg));
  }
  return errs;
}

export function validateIPBlock(block: IPBlock, path: FieldPath): FieldError[] {
  if (!block.cidr) return [required(path.child('cidr'))];
  const cidr = parseCIDR(block.cidr);
  if (!cidr) return [invalid(path.child('cidr'), block.cidr, 'not a valid CIDR')];
  const errs: FieldError[] = [];
  for (const [i, text] of (block.except ?? []).entries()) {
    const except = parseCIDR(text);
    if (!except) return [...errs, invalid(path.child('except').index(i), text, 'not a valid CIDR')];
    const inside = cidrContains(cidr, { family: except.family, value: except.network });
    if (!inside || cidr.prefixLength >= except.prefixLength)
      errs.push(invalid(path.child('except').index(i), text, 'must be a strict subset of `cidr`'));
  }
  return errs;
}

export function validateNetworkPolicyPeer(peer: NetworkPolicyPeer, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  if (peer.podSelector) {
    peers++;
    errs.push(...validateLabelSelector(peer.podSelector, path.child('podSelector')));
  }
  if (peer.namespaceSelector) {
    peers++;
    errs.push(...validateLabelSelector(peer.namespaceSelector, path.child('namespaceSelector')));
  }
  if (peer.ipBlock) {
    peers++;
    errs.push(...validateIPBlock(peer.ipBlock, path.child('ipBlock')));
  }
  if (peers === 0) errs.push(required(path, 'must specify a peer'));
  else if (peers > 1 && peer.ipBlock) errs.push(forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

export function validateNetworkPolicySpec(spec: NetworkPolicySpec, path: FieldPath = fieldPath('spec')): FieldError[] {
  const errs = validateLabelSelector(spec.podSelector ?? {}, path.child('podSelector'));
  // Ingress rules name their peers `from`, egress rules `to`.
  const rules = [
    ...(spec.ingress ?? []).map((rule, i) => ({
      path: path.child('ingress').index(i),
      ports: rule.ports,
      peersField: 'from',
      peers: rule.from,
    })),
    ...(spec.egress ?? []).map((rule, i) => ({ path: path.child('egress').index(i), ports: rule.ports, peersField: 'to', peers: rule.to })),
  ];
  for (const rule of rules) {
    for (const [j, port] of (rule.ports ?? []).entries()) errs.push(...validateNetworkPolicyPort(port, rule.path.child('ports').index(j)));
    for (const [j, peer] of (rule.peers ?? []).entries())
      errs.push(...validateNetworkPolicyPeer(peer, rule.path.child(rule.peersField).index(j)));
  }
  const types = spec.policyTypes ?? [];
  if (types.length > POLICY_TYPES.length)
    return [...errs, invalid(path.child('policyTypes'), types, 'may not specify more than two policyTypes')];
  for (const [i, t] of types.entries())
    if (!POLICY_TYPES.includes(t)) errs.push(notSupported(path.child('policyTypes').index(i), t, POLICY_TYPES));
  return errs;
}
