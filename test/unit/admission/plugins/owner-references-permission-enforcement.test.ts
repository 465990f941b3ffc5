import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newOwnerReferencesPermissionEnforcement } from '../../../../apiserver/admission/plugins/owner-references-permission-enforcement.js';
import type { Attributes, Authorizer } from '../../../../apiserver/authorization/interfaces.js';
import { attrs, newEnv, rejection } from '../fixture.js';

/** Allows what `allow` accepts; remembers what it was asked. */
function authorizer(allow: (a: Attributes) => boolean): Authorizer & { asked: Attributes[] } {
  const asked: Attributes[] = [];
  return {
    asked,
    authorize: async (a) => {
      asked.push(a);
      return { decision: allow(a) ? 'Allow' : 'NoOpinion', reason: 'no RBAC policy matched' };
    },
  };
}
const owner = (blockOwnerDeletion?: boolean) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', blockOwnerDeletion });
const cm = (ownerReferences: unknown[] = []) =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns', ownerReferences } }) as never;

test('OwnerReferencesPermissionEnforcement: changing owners on update needs delete on the object', async () => {
  const authz = authorizer((a) => a.verb !== 'delete');
  const p = newOwnerReferencesPermissionEnforcement(newEnv(undefined, { authorizer: authz }), undefined);
  await p.validate!(attrs({ resource: 'configmaps', namespace: 'ns', object: cm([owner()]) }));
  await p.validate!(
    attrs({ operation: 'UPDATE', resource: 'configmaps', namespace: 'ns', object: cm([owner()]), oldObject: cm([owner()]) }),
  );
  const err = await rejection(
    p.validate!(attrs({ operation: 'UPDATE', resource: 'configmaps', namespace: 'ns', object: cm([owner()]), oldObject: cm() })),
  );
  assert.equal(
    err.status.message,
    'configmaps "c" is forbidden: cannot set an ownerRef on a resource you can\'t delete: no RBAC policy matched, <nil>',
  );
});

test('OwnerReferencesPermissionEnforcement: blockOwnerDeletion needs update on the owner’s finalizers', async () => {
  const finalizers = authorizer((a) => a.subresource === 'finalizers' && a.resource === 'replicasets' && a.name === 'rs');
  const p = newOwnerReferencesPermissionEnforcement(newEnv(undefined, { authorizer: finalizers }), undefined);
  await p.validate!(attrs({ resource: 'configmaps', namespace: 'ns', object: cm([owner(true)]) }));
  assert.deepEqual(
    finalizers.asked.map((x) => [x.verb, x.apiGroup, x.resource, x.subresource, x.name, x.namespace]),
    [
      ['update', '*', '*', 'finalizers', '*', ''],
      ['update', 'apps', 'replicasets', 'finalizers', 'rs', 'ns'],
    ],
  );
  const none = newOwnerReferencesPermissionEnforcement(newEnv(undefined, { authorizer: authorizer(() => false) }), undefined);
  const err = await rejection(none.validate!(attrs({ resource: 'configmaps', namespace: 'ns', object: cm([owner(true)]) })));
  assert.match(err.status.message!, /cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on/);
  const unknown = await rejection(
    none.validate!(
      attrs({
        resource: 'configmaps',
        namespace: 'ns',
        object: cm([{ apiVersion: 'example.com/v1', kind: 'Thing', name: 't', uid: 'u', blockOwnerDeletion: true }]),
      }),
    ),
  );
  assert.match(unknown.status.message!, /cannot find RESTMapping for APIVersion example.com\/v1 Kind Thing/);
});
