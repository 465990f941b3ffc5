/**
 * The pods/status subresource: only status changes (the generic contract), the QoS class is kept from
 * the stored pod and never changes, and ValidatePodStatusUpdate's checks of conditions, the nominated
 * node and pod IPs.
 */
import { isIPv4 } from 'node:net';
import type { FieldError } from '../../../api/field-errors.js';
import { duplicate, fieldPath, invalid } from '../../../api/field-errors.js';
import { isQualifiedName, nameIsDNSSubdomain } from '../../../api/validation/names.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import { typedSubresource } from '../../../api/strategy.js';
import type { Pod, PodStatus } from '../../../api/generated/types.js';
import { REQUEST_METADATA, withStatusOf } from '../../generic/status-subresource.js';
import { isValidIP } from '../../shared/pod-spec/value-checks.js';

const SYSTEM_CONDITIONS = ['PodScheduled', 'Ready', 'Initialized'];

function podStatus(obj: Pod): PodStatus {
  return obj.status ?? {};
}

/** ValidatePodStatusUpdate (the rules that can apply through this subresource). */
function validatePodStatusUpdate(obj: Pod, old: Pod): FieldError[] {
  const next = podStatus(obj);
  const prev = podStatus(old);
  const errs: FieldError[] = [];
  // Kubernetes reports custom condition types under metadata.conditions.
  (next.conditions ?? []).forEach((c, i) => {
    if (SYSTEM_CONDITIONS.includes(c.type ?? '')) return;
    const at = fieldPath('metadata', 'conditions').index(i).child('Type');
    errs.push(...isQualifiedName(c.type ?? '').map((m) => invalid(at, c.type ?? '', m)));
  });
  const nominated = next.nominatedNodeName ?? '';
  if (nominated && nominated !== (prev.nominatedNodeName ?? '')) {
    errs.push(...nameIsDNSSubdomain(nominated, false).map((m) => invalid(fieldPath('status', 'nominatedNodeName'), nominated, m)));
  }
  if ((next.qosClass ?? '') !== (prev.qosClass ?? ''))
    errs.push(invalid(fieldPath('status', 'qosClass'), next.qosClass ?? '', FIELD_IMMUTABLE_ERROR_MSG));
  const ips = next.podIPs ?? [];
  const ipsPath = fieldPath('status', 'podIPs');
  ips.forEach((ip, i) => errs.push(...isValidIP(ip.ip ?? '').map((m) => invalid(ipsPath.index(i), ip.ip ?? '', m))));
  if (ips.length > 1) {
    const families = new Set(ips.map((ip) => (isIPv4(ip.ip ?? '') ? 4 : 6)));
    if (ips.length > 2 || families.size !== 2) errs.push(invalid(ipsPath, ips, 'may specify no more than one IP for each IP family'));
    const seen = new Set<string>();
    ips.forEach((ip, i) => {
      if (seen.has(ip.ip ?? '')) errs.push(duplicate(ipsPath.index(i), ip));
      seen.add(ip.ip ?? '');
    });
  }
  return errs;
}

/**
 * pods/status: status only; an empty qosClass is backfilled from the stored pod, and podIP and
 * podIPs[0] are kept in step as the v1 conversion does.
 */
export const podStatusSubresource = typedSubresource<Pod>({
  prepareForUpdate(obj, old) {
    // podStatusStrategy keeps the stored owner references, the rest of the request's metadata.
    const next = withStatusOf(obj, old, { ...REQUEST_METADATA, ownerReferences: false });
    const status = { ...podStatus(next) };
    if (!status.qosClass && podStatus(old).qosClass) status.qosClass = podStatus(old).qosClass;
    if ((status.podIPs ?? []).length === 0 && status.podIP) status.podIPs = [{ ip: status.podIP }];
    if (status.podIPs?.[0]?.ip) status.podIP = status.podIPs[0].ip;
    if (next.status !== undefined || Object.keys(status).length > 0) next.status = status;
    return next;
  },
  validateUpdate: validatePodStatusUpdate,
});
