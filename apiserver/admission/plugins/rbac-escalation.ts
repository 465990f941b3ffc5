/**
 * Keeps RBAC writes from granting more than the writer holds: every create or update of a Role,
 * ClusterRole, RoleBinding or ClusterRoleBinding is put to the escalation check (given by the
 * server; authorization/rbac/escalation.ts), whose refusal is a 403 on the object. The check gets the
 * name the request addressed, as Kubernetes' RoleEscalationAuthorized reads requestInfo.Name: '' for
 * a create by POST, so an `escalate` grant restricted by resourceNames never covers a POST create.
 */
import type { ApiObject } from '../../api/object.js';
import * as status from '../../api/status.js';
import type { UserInfo } from '../../authentication/interfaces.js';
import type { ValidatingPlugin } from '../interfaces.js';

const KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

/** Says why a write may not happen, or undefined. */
export type RbacWriteCheck = (write: {
  kind: RbacWriteKind;
  namespace: string;
  /** The name the request addressed: '' for a create by POST to the collection. */
  requestName: string;
  user: UserInfo;
  object: ApiObject;
  oldObject?: ApiObject;
}) => Promise<string | undefined>;

type RbacWriteKind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';

export function newRbacEscalation(rbacGroup: string, check: RbacWriteCheck): ValidatingPlugin {
  return {
    name: 'RBACEscalation',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    handlesResource: (r) => r.group === rbacGroup && KINDS.has(r.kind),
    async validate(a) {
      const kind = a.resource.kind;
      if (a.resource.group !== rbacGroup || !KINDS.has(kind) || a.subresource || !a.object) return;
      const refusal = await check({
        kind: kind as RbacWriteKind,
        namespace: a.namespace,
        // A write made by no request (absent): a create is taken as a POST, the narrower reading.
        requestName: a.requestName ?? (a.operation === 'CREATE' ? '' : a.name),
        user: a.user,
        object: a.object,
        oldObject: a.oldObject,
      });
      if (refusal) throw status.forbidden({ group: a.resource.group, resource: a.resource.plural }, a.name, refusal);
    },
  };
}
