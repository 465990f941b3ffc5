/**
 * RoleBinding and ClusterRoleBinding: roleRef (apiGroup defaulted to the RBAC group of the domain, kind
 * Role/ClusterRole — ClusterRole only for a ClusterRoleBinding —, a path-segment name) that can never
 * change, and subjects. Kubernetes lets a PUT create either.
 */
import { jsonEqual } from '../../../api/object.js';
import { type Strategy, type StrategyContext, typedStrategy } from '../../../api/strategy.js';
import type { RoleBinding, RoleRef } from '../../../api/generated/types.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, invalid, notSupported, required } from '../../../api/field-errors.js';
import { validatePathSegmentName } from '../../../api/validation/names.js';
import { defaultSubject, rbacGroup, validateSubject } from './subject.js';

/** roleRef as Go's struct compares it: every field, empty when unset. */
const roleRefValue = (ref: Partial<RoleRef> | undefined): RoleRef => ({
  apiGroup: ref?.apiGroup ?? '',
  kind: ref?.kind ?? '',
  name: ref?.name ?? '',
});

function validateRoleRef(ref: Partial<RoleRef> | undefined, roleKinds: string[], group: string): FieldError[] {
  const { apiGroup, kind, name } = roleRefValue(ref);
  const errors: FieldError[] = [];
  if (apiGroup !== group) errors.push(notSupported('roleRef.apiGroup', apiGroup, [group]));
  if (!roleKinds.includes(kind)) errors.push(notSupported('roleRef.kind', kind, roleKinds));
  if (!name) errors.push(required('roleRef.name'));
  else for (const msg of validatePathSegmentName(name, false)) errors.push(invalid('roleRef.name', name, msg));
  return errors;
}

/** ClusterRoleBinding has RoleBinding's shape (roleRef, subjects). */
function bindingStrategy(namespaced: boolean, roleKinds: string[]): Strategy {
  const validate = (b: RoleBinding, ctx: StrategyContext): FieldError[] => {
    const group = rbacGroup(ctx.domain);
    return [
      ...validateRoleRef(b.roleRef, roleKinds, group),
      ...(b.subjects ?? []).flatMap((s, i) => validateSubject(s, namespaced, group, fieldPath('subjects').index(i))),
    ];
  };
  return typedStrategy<RoleBinding>({
    applyDefaults(b, ctx) {
      const group = rbacGroup(ctx.domain);
      if (!b.roleRef?.apiGroup) b.roleRef = { ...b.roleRef, apiGroup: group };
      for (const subject of b.subjects ?? []) defaultSubject(subject, group);
    },
    validate,
    validateUpdate(obj, old, ctx) {
      const ref = roleRefValue(obj.roleRef);
      const changed = jsonEqual(ref, roleRefValue(old.roleRef)) ? [] : [invalid('roleRef', ref, 'cannot change roleRef')];
      return [...validate(obj, ctx), ...changed];
    },
  });
}

export const roleBindingStrategy = bindingStrategy(true, ['Role', 'ClusterRole']);
export const clusterRoleBindingStrategy = bindingStrategy(false, ['ClusterRole']);
