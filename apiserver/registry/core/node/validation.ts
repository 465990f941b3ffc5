/** ValidateNode and ValidateNodeUpdate (Kubernetes 1.28), quirks included (taints report under `metadata.taints`). */
import { jsonEqual } from '../../../api/object.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, fieldPath, forbidden, invalid, required } from '../../../api/field-errors.js';
import { isConfigMapKey, nameIsDNSLabel, nameIsDNSSubdomain } from '../../../api/validation/names.js';
import { resourceListEntries } from '../../shared/pod-spec/resource-quantities.js';
import { ResourceNames } from '../../shared/pod-spec/resources.js';
import { cidrFamily } from './cidr.js';
import { validateNodeTaints } from './taints.js';
import type { ConfigMapNodeConfigSource, Node, NodeAddress, NodeConfigSource } from '../../../api/generated/types.js';

/** ValidateNodeResources: capacity and allocatable quantities. */
function validateNodeResources(obj: Node, labelPrefix: string): FieldError[] {
  const names = new ResourceNames(labelPrefix);
  return (['capacity', 'allocatable'] as const).flatMap((list) =>
    resourceListEntries(obj.status?.[list], (n) => fieldPath('status', list, n)).flatMap(({ name, path, quantity }) =>
      names.validateQuantityValue(name, quantity, path),
    ),
  );
}

/** Pod CIDRs: each valid; two at most, one per family, no duplicates. */
function validatePodCIDRs(cidrs: string[]): FieldError[] {
  const errors: FieldError[] = [];
  const path = fieldPath('spec', 'podCIDRs');
  const families = cidrs.map(cidrFamily);
  families.forEach((family, i) => {
    if (family === undefined) errors.push(invalid(path.index(i), cidrs, 'must be valid CIDR'));
  });
  if (cidrs.length < 2) return errors;
  const bad = families.indexOf(undefined);
  if (bad >= 0) {
    const detail = `invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[${bad}]: <nil> (invalid CIDR address: ${cidrs[bad]})`;
    errors.push({ type: 'InternalError', field: String(path), detail });
  }
  const dualStack = bad < 0 && families.includes(4) && families.includes(6);
  if (!dualStack || cidrs.length > 2) errors.push(invalid(path, cidrs, 'may specify no more than one CIDR for each IP family'));
  const seen = new Set<string>();
  cidrs.forEach((c, i) => {
    if (seen.has(c)) errors.push(duplicate(path.index(i), c));
    seen.add(c);
  });
  return errors;
}

/** validateConfigMapNodeConfigSource: the ConfigMap a kubelet config comes from. */
function validateConfigMapReference(source: Partial<ConfigMapNodeConfigSource>, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const { namespace = '', name = '', kubeletConfigKey = '' } = source;
  if (!namespace) errors.push(required(path.child('namespace'), 'namespace must be set'));
  else errors.push(...nameIsDNSLabel(namespace, false).map((m) => invalid(path.child('namespace'), namespace, m)));
  if (!name) errors.push(required(path.child('name'), 'name must be set'));
  else errors.push(...nameIsDNSSubdomain(name, false).map((m) => invalid(path.child('name'), name, m)));
  if (!kubeletConfigKey) errors.push(required(path.child('kubeletConfigKey'), 'kubeletConfigKey must be set'));
  else errors.push(...isConfigMapKey(kubeletConfigKey).map((m) => invalid(path.child('kubeletConfigKey'), kubeletConfigKey, m)));
  return errors;
}

/** A config source with exactly one reference; in spec uid/resourceVersion are forbidden, in status required. */
function validateConfigSource(source: NodeConfigSource, path: FieldPath, inStatus: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const cm = source.configMap;
  if (cm) {
    const p = path.child('configMap');
    if (inStatus) {
      if (!cm.uid) errors.push(required(p.child('uid'), 'uid must be set in status'));
      if (!cm.resourceVersion) errors.push(required(p.child('resourceVersion'), 'resourceVersion must be set in status'));
    } else {
      if (cm.uid) errors.push(forbidden(p.child('uid'), 'uid must not be set in spec'));
      if (cm.resourceVersion) errors.push(forbidden(p.child('resourceVersion'), 'resourceVersion must not be set in spec'));
    }
    errors.push(...validateConfigMapReference(cm, p));
  } else errors.push(invalid(path, source, 'exactly one reference subfield must be non-nil'));
  return errors;
}

/** ValidateNode (metadata is checked by the store). */
export function validateNode(obj: Node, labelPrefix: string): FieldError[] {
  const errors: FieldError[] = [];
  const spec = obj.spec ?? {};
  if ((spec.taints ?? []).length > 0) errors.push(...validateNodeTaints(spec.taints!, fieldPath('metadata', 'taints')));
  errors.push(...validateNodeResources(obj, labelPrefix));
  if ((spec.podCIDRs ?? []).length > 0) errors.push(...validatePodCIDRs(spec.podCIDRs!));
  return errors;
}

/** ValidateNodeUpdate: what may change once set, and the status it carries. */
export function validateNodeUpdate(obj: Node, old: Node, labelPrefix: string): FieldError[] {
  const errors = validateNodeResources(obj, labelPrefix);
  const next = obj;
  const prev = old;
  const seen: NodeAddress[] = [];
  (next.status?.addresses ?? []).forEach((a, i) => {
    if (seen.some((s) => s.type === a.type && s.address === a.address))
      errors.push(duplicate(fieldPath('status', 'addresses').index(i), a));
    seen.push(a);
  });
  const oldCIDRs = prev.spec?.podCIDRs ?? [];
  const newCIDRs = next.spec?.podCIDRs ?? [];
  const cidrMessage = 'node updates may not change podCIDR except from "" to valid';
  if (oldCIDRs.length > 0) {
    if (oldCIDRs.length !== newCIDRs.length) errors.push(forbidden(fieldPath('spec', 'podCIDRs'), cidrMessage));
    else oldCIDRs.forEach((c, i) => c !== newCIDRs[i] && errors.push(forbidden(fieldPath('spec', 'podCIDRs'), cidrMessage)));
  }
  const oldProvider = prev.spec?.providerID ?? '';
  if (oldProvider && oldProvider !== (next.spec?.providerID ?? '')) {
    errors.push(forbidden(fieldPath('spec', 'providerID'), 'node updates may not change providerID except from "" to valid'));
  }
  if (next.spec?.configSource) errors.push(...validateConfigSource(next.spec.configSource, fieldPath('spec', 'configSource'), false));
  const config = next.status?.config;
  for (const key of ['assigned', 'active', 'lastKnownGood'] as const) {
    if (config?.[key]) errors.push(...validateConfigSource(config[key]!, fieldPath('status', 'config', key), true));
  }
  if (!jsonEqual(next.spec?.externalID ?? '', prev.spec?.externalID ?? ''))
    errors.push(forbidden(fieldPath('spec', 'externalID'), 'may not be updated'));
  return errors;
}
