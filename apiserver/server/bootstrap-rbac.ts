/**
 * Reconciles the default RBAC policy (authorization/rbac/bootstrap/) with the stores at every start,
 * as the system user: what is missing is created, default objects gain missing rules and subjects,
 * user additions stay, objects annotated autoupdate=false are left alone.
 */
import type { ApiDomain } from '../api/domain.js';
import { type ApiObject, asApiObject, asKind, type KindObject } from '../api/object.js';
import type { ResourceTable } from '../api/resource-table.js';
import type { ResourceDef } from '../api/resource.js';
import * as status from '../api/status.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { RequestContext } from '../registry/generic/request-context.js';
import { bootstrapKeys, defaultPolicy } from '../authorization/rbac/bootstrap/default-policy.js';
import { type Reconciliation, reconcileBinding, reconcileRole } from '../authorization/rbac/bootstrap/reconcile.js';
import { SYSTEM_USER } from './bootstrap-namespaces.js';
import { storeLookup } from './store-lookup.js';

type Reconcile = (expected: ApiObject, existing: ApiObject | undefined, autoUpdateKey: string) => Reconciliation<ApiObject>;

/** A reconciliation of a typed role or binding, as the stores' untyped object. */
const untyped = <T extends KindObject>(r: Reconciliation<T>): Reconciliation<ApiObject> =>
  r.op === 'none' ? r : { op: r.op, object: asApiObject(r.object) };
const roles: Reconcile = (e, x, key) => untyped(reconcileRole(asKind(e), x && asKind(x), key));
const bindings: Reconcile = (e, x, key) => untyped(reconcileBinding(asKind(e), x && asKind(x), key));

async function reconcileOne(store: GenericStore, expected: ApiObject, reconcile: Reconcile, autoUpdateKey: string): Promise<void> {
  const ctx: RequestContext = { namespace: expected.metadata.namespace ?? '', user: SYSTEM_USER, dryRun: false, now: new Date() };
  const name = expected.metadata.name!;
  let recreate = false;
  try {
    await store.update(
      ctx,
      name,
      (old) => {
        const r = reconcile(expected, old ?? undefined, autoUpdateKey);
        if (r.op === 'none') return old!;
        if (r.op === 'recreate') {
          recreate = true;
          return old!;
        }
        return r.object;
      },
      { allowCreate: true },
    );
  } catch (err) {
    if (!status.isApiError(err, 'AlreadyExists')) throw err;
  }
  if (!recreate) return;
  try {
    await store.delete(ctx, name, {});
  } catch (err) {
    if (!status.isApiError(err, 'NotFound')) throw err;
  }
  await store.create(ctx, expected);
}

export async function reconcileDefaultPolicy(
  domain: ApiDomain,
  table: ResourceTable,
  stores: Map<ResourceDef, GenericStore>,
): Promise<void> {
  const lookup = storeLookup(table, () => stores);
  const store = (plural: string) => lookup.store('rbac.authorization.k8s.io', 'v1', plural);
  const policy = defaultPolicy(domain);
  const { autoUpdate } = bootstrapKeys(domain);
  const plan: [GenericStore, object[], Reconcile][] = [
    [store('clusterroles'), policy.clusterRoles, roles],
    [store('clusterrolebindings'), policy.clusterRoleBindings, bindings],
    [store('roles'), policy.roles, roles],
    [store('rolebindings'), policy.roleBindings, bindings],
  ];
  for (const [s, objects, reconcile] of plan) {
    for (const o of objects) await reconcileOne(s, o as ApiObject, reconcile, autoUpdate);
  }
}
