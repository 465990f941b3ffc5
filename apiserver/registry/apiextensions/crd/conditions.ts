/** The conditions of a CustomResourceDefinition's status: NamesAccepted, Established, Terminating. */
import type { CustomResourceDefinition, CustomResourceDefinitionCondition } from '../../../api/generated/types.js';
import { timestamp } from '../../../api/object-meta.js';

export type CrdConditionType =
  | 'NamesAccepted'
  | 'Established'
  | 'Terminating'
  | 'NonStructuralSchema'
  | 'KubernetesAPIApprovalPolicyConformant';

/** The finalizer that keeps a deleted CRD until its objects are gone ("customresourcecleanup.apiextensions.<domain>"). */
export function cleanupFinalizer(apiextensionsGroup: string): string {
  return `customresourcecleanup.${apiextensionsGroup}`;
}

export function findCondition(crd: CustomResourceDefinition, type: CrdConditionType): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export function isConditionTrue(crd: CustomResourceDefinition, type: CrdConditionType): boolean {
  return findCondition(crd, type)?.status === 'True';
}

/**
 * Sets a condition in place; lastTransitionTime moves only when the status changes (as Kubernetes'
 * SetCRDCondition). Returns whether anything changed.
 */
export function setCondition(
  crd: CustomResourceDefinition,
  condition: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'> & { type: CrdConditionType },
  now: Date,
): boolean {
  crd.status ??= {};
  const conditions = (crd.status.conditions ??= []);
  const existing = conditions.find((c) => c.type === condition.type);
  if (!existing) {
    conditions.push({
      type: condition.type,
      status: condition.status,
      lastTransitionTime: timestamp(now),
      reason: condition.reason,
      message: condition.message,
    });
    return true;
  }
  if (existing.status === condition.status && existing.reason === condition.reason && existing.message === condition.message) return false;
  if (existing.status !== condition.status) existing.lastTransitionTime = timestamp(now);
  existing.status = condition.status;
  existing.reason = condition.reason;
  existing.message = condition.message;
  return true;
}
