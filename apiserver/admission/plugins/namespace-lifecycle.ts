/**
 * NamespaceLifecycle: nothing new in a Terminating namespace (403), nothing created in a missing one
 * (404) — LocalSubjectAccessReviews aside, as in Kubernetes — and the system namespaces can never be
 * deleted (403).
 */
import * as status from '../../api/status.js';
import type { PluginFactory, ValidatingPlugin } from '../interfaces.js';
import { NAMESPACES } from '../resources.js';

export const newNamespaceLifecycle: PluginFactory = ({ domain, reader }): ValidatingPlugin => {
  const immortal = new Set(domain.immortalNamespaces);
  return {
    name: 'NamespaceLifecycle',
    handles: (op) => op === 'CREATE' || op === 'DELETE',
    async validate(a) {
      const gr = { group: a.resource.group, resource: a.resource.plural };
      if (a.operation === 'DELETE') {
        if (a.resource.group === '' && a.resource.plural === 'namespaces' && immortal.has(a.name)) {
          throw status.forbidden(gr, a.name, 'this namespace may not be deleted');
        }
        return;
      }
      if (!a.resource.namespaced || !a.namespace) return;
      // An access review in a namespace says nothing about the namespace: always answered (isAccessReview).
      if (a.resource.kubernetesGroup === 'authorization.k8s.io' && a.resource.plural === 'localsubjectaccessreviews') return;
      const ns = await reader.get(NAMESPACES, '', a.namespace);
      if (!ns) throw status.notFound({ group: '', resource: 'namespaces' }, a.namespace);
      const phase = (ns.status as { phase?: string } | undefined)?.phase;
      if (phase === 'Terminating' || ns.metadata.deletionTimestamp) {
        throw status.forbidden(gr, a.name, `unable to create new content in namespace ${a.namespace} because it is being terminated`, [
          { reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' },
        ]);
      }
    },
  };
};
