/**
 * OwnerReferencesPermissionEnforcement: changing an object's ownerReferences needs permission to
 * delete the object (on update), and a new blockOwnerDeletion reference needs permission to update
 * the owner's `finalizers` subresource (or every resource's), as the request's user, asked of the
 * Authorizer. Pods' /status is exempt.
 */
import type { ApiObject } from '../../api/object.js';
import { jsonEqual } from '../../api/object.js';
import type { Attributes } from '../../authorization/interfaces.js';
import { admissionForbidden } from '../errors.js';
import type { PluginFactory, ValidatingPlugin } from '../interfaces.js';
import { isResource, PODS } from '../resources.js';

interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  blockOwnerDeletion?: boolean;
  controller?: boolean;
}

const refsOf = (o: ApiObject | undefined) => (o?.metadata.ownerReferences ?? []) as OwnerReference[];

export const newOwnerReferencesPermissionEnforcement: PluginFactory = ({ authorizer, resourcesOfKind }): ValidatingPlugin => ({
  name: 'OwnerReferencesPermissionEnforcement',
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  async validate(a) {
    if (!a.object || (isResource(a.resource, PODS) && a.subresource === 'status')) return;
    const now = refsOf(a.object);
    const before = refsOf(a.oldObject);
    const changing = a.oldObject ? now.length !== before.length || now.some((r, i) => !jsonEqual(r, before[i])) : now.length > 0;
    if (!changing) return;
    const base = { user: a.user, resourceRequest: true, path: '' };
    if (a.operation !== 'CREATE') {
      const del: Attributes = {
        ...base,
        verb: 'delete',
        namespace: a.namespace,
        apiGroup: a.resource.group,
        apiVersion: a.resource.version,
        resource: a.resource.plural,
        subresource: a.subresource,
        name: a.name,
      };
      const d = await authorizer.authorize(del);
      if (d.decision !== 'Allow') throw admissionForbidden(a, `cannot set an ownerRef on a resource you can't delete: ${d.reason}, <nil>`);
    }
    const blocking = now.filter((r) => r.blockOwnerDeletion && !before.some((b) => b.uid === r.uid && b.blockOwnerDeletion));
    if (blocking.length === 0) return;
    const anything: Attributes = {
      ...base,
      verb: 'update',
      namespace: '',
      apiGroup: '*',
      apiVersion: '*',
      resource: '*',
      subresource: 'finalizers',
      name: '*',
    };
    if ((await authorizer.authorize(anything)).decision === 'Allow') return;
    for (const ref of blocking) {
      const [group, version] = ref.apiVersion.includes('/') ? ref.apiVersion.split('/', 2) : ['', ref.apiVersion];
      const all = resourcesOfKind(group, ref.kind);
      const defs = all.some((d) => d.version === version) ? all.filter((d) => d.version === version) : all;
      if (defs.length === 0) {
        throw admissionForbidden(
          a,
          `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${ref.apiVersion} Kind ${ref.kind}: no matches for kind "${ref.kind}" in version "${ref.apiVersion}"`,
        );
      }
      for (const def of defs) {
        const d = await authorizer.authorize({
          ...base,
          verb: 'update',
          namespace: def.namespaced ? a.namespace : '',
          apiGroup: def.group,
          apiVersion: def.version,
          resource: def.plural,
          subresource: 'finalizers',
          name: ref.name,
        });
        if (d.decision !== 'Allow') {
          throw admissionForbidden(
            a,
            `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${d.reason}, <nil>`,
          );
        }
      }
    }
  },
});
