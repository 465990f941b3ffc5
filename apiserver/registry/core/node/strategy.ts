/**
 * Node: the deprecated spec.configSource is dropped unless already stored, allocatable defaults to
 * capacity, and the update rules of ValidateNodeUpdate (podCIDRs and providerID fixed once set,
 * externalID fixed). Status changes through /status, where the same update rules apply.
 */
import { type ApiObject, isPlainObject } from '../../../api/object.js';
import { typedStrategy, typedSubresource } from '../../../api/strategy.js';
import type { Node } from '../../../api/generated/types.js';
import { withStatusOf } from '../../status-subresource.js';
import { decodeResourceList } from '../pod-spec/quantities.js';
import { validateNode, validateNodeUpdate } from './validation.js';

/** Status quantities decoded (a 400 for a malformed one); SetDefaults_NodeStatus: allocatable is the capacity when not given. */
function defaultStatus(obj: Node): void {
  const status = obj.status;
  decodeResourceList(obj, status?.capacity);
  decodeResourceList(obj, status?.allocatable);
  if (status?.capacity && status.allocatable === undefined) status.allocatable = { ...status.capacity };
}

export const nodeStrategy = typedStrategy<Node>({
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
  'spec.unschedulable': (o) => String(isPlainObject(o.spec) && o.spec.unschedulable === true),
};
