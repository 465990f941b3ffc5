/**
 * Node: the deprecated spec.configSource is dropped unless already stored, allocatable defaults to
 * capacity, and the update rules of ValidateNodeUpdate (podCIDRs and providerID fixed once set,
 * externalID fixed). Status changes through /status, where the same update rules apply.
 */
import type { ApiObject } from '../../../api/object.js';
import type { Strategy, SubresourceStrategy } from '../../../api/strategy.js';
import { statusSubresource } from '../../status-subresource.js';
import { decodeResourceList } from '../pod-spec/quantities.js';
import type { NodeFields } from './validation.js';
import { validateNode, validateNodeUpdate } from './validation.js';

const node = (obj: ApiObject): NodeFields => obj as NodeFields;

/** Status quantities decoded (a 400 for a malformed one); SetDefaults_NodeStatus: allocatable is the capacity when not given. */
function defaultStatus(obj: ApiObject): void {
  const status = node(obj).status;
  decodeResourceList(obj, status?.capacity as Record<string, string> | undefined);
  decodeResourceList(obj, status?.allocatable as Record<string, string> | undefined);
  if (status?.capacity && status.allocatable === undefined) status.allocatable = { ...status.capacity };
}

export const nodeStrategy: Strategy = {
  prepareForCreate(obj) {
    delete node(obj).spec?.configSource;
  },
  prepareForUpdate(obj, old) {
    if (!node(old).spec?.configSource) delete node(obj).spec?.configSource;
  },
  validate: (obj, ctx) => validateNode(obj, ctx.domain.labelPrefix),
  validateUpdate: (obj, old, ctx) => [
    ...validateNode(obj, ctx.domain.labelPrefix),
    ...validateNodeUpdate(obj, old, ctx.domain.labelPrefix),
  ],
};

/** /status: only status changes, defaulted as above; checked with the update rules. */
export const nodeStatusStrategy: SubresourceStrategy = {
  prepareForUpdate(obj, old, ctx) {
    const next = statusSubresource.prepareForUpdate(obj, old, ctx);
    defaultStatus(next);
    return next;
  },
  validateUpdate: (obj, old, ctx) => validateNodeUpdate(obj, old, ctx.domain.labelPrefix),
};

/** Field selectors of nodes besides metadata ones. */
export const nodeSelectableFields: Record<string, (obj: ApiObject) => string | undefined> = {
  'spec.unschedulable': (o) => String(node(o).spec?.unschedulable === true),
};
