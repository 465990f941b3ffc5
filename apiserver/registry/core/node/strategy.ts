/**
 * Node: spec.podCIDR kept as podCIDRs[0], the deprecated spec.configSource is dropped unless already stored, allocatable defaults to
 * capacity, and the update rules of ValidateNodeUpdate (podCIDRs and providerID fixed once set,
 * externalID fixed). Status changes through /status, where the same update rules apply.
 */
import { type ApiObject, isPlainObject } from '../../../api/object.js';
import { typedStrategy, typedSubresource } from '../../../api/strategy.js';
import type { Node } from '../../../api/generated/types.js';
import { withStatusOf } from '../../generic/status-subresource.js';
import { decodeResourceList } from '../../shared/pod-spec/quantities.js';
import { validateNode, validateNodeUpdate } from './validation.js';

/** Status quantities decoded (a 400 for a malformed one); SetDefaults_NodeStatus: allocatable is the capacity when not given. */
function defaultStatus(obj: Node): void {
  const status = obj.status;
  decodeResourceList(obj, status?.capacity);
  decodeResourceList(obj, status?.allocatable);
  if (status?.capacity && status.allocatable === undefined) status.allocatable = { ...status.capacity };
}

/**
 * spec.podCIDR and spec.podCIDRs are one field in Kubernetes' internal Node (its v1 conversion): a
 * lone podCIDR becomes podCIDRs[0], and podCIDR always shows podCIDRs[0].
 */
function syncPodCIDRs(obj: Node): void {
  const spec = obj.spec;
  if (!spec) return;
  if (spec.podCIDR && !(spec.podCIDRs ?? []).length) spec.podCIDRs = [spec.podCIDR];
  if ((spec.podCIDRs ?? []).length) spec.podCIDR = spec.podCIDRs![0];
}

export const nodeStrategy = typedStrategy<Node>({
  applyDefaults: syncPodCIDRs,
  prepareForCreate(obj) {
    delete obj.spec?.configSource;
  },
  prepareForUpdate(obj, old) {
    if (!old.spec?.configSource) delete obj.spec?.configSource;
  },
  validate: (obj, ctx) => validateNode(obj, ctx.domain.labelPrefix),
  validateUpdate: (obj, old, ctx) => [
    ...validateNode(obj, ctx.domain.labelPrefix),
    ...validateNodeUpdate(obj, old, ctx.domain.labelPrefix),
  ],
});

/** /status: only status changes, defaulted as above; checked with the update rules. */
export const nodeStatusStrategy = typedSubresource<Node>({
  prepareForUpdate(obj, old, _ctx) {
    const next = withStatusOf(obj, old);
    defaultStatus(next);
    return next;
  },
  validateUpdate: (obj, old, ctx) => validateNodeUpdate(obj, old, ctx.domain.labelPrefix),
});

/** Field selectors of nodes besides metadata ones. */
export const nodeSelectableFields: Record<string, (obj: ApiObject) => string | undefined> = {
  'metadata.name': (o) => o.metadata.name,
  'spec.unschedulable': (o) => String(isPlainObject(o.spec) && o.spec.unschedulable === true),
};
