/**
 * NamespaceLifecycle: nothing new in a Terminating namespace (403), nothing created in a missing one
 * (404) — LocalSubjectAccessReviews aside, as in Kubernetes — and the system namespaces can never be
 * deleted (403). The namespace is read from the watch cache, and from the store when the cache misses
 * it or its deletion was admitted here in the last 30 s (Kubernetes' lister and forced live lookup).
 */
import * as status from '../../api/status.js';
import type { PluginFactory, ValidatingPlugin } from '../interfaces.js';
import { NAMESPACES } from '../resources.js';

/** How long after admitting a namespace's deletion its contents' creates read it from the store (Kubernetes: 30 s). */
const FORCE_LIVE_LOOKUP_MS = 30_000;

export const newNamespaceLifecycle: PluginFactory = ({ domain, reader }): ValidatingPlugin => {
  const immortal = new Set(domain.immortalNamespaces);
  /** Namespaces whose deletion this server admitted, until when the cache is not trusted for them. */
  const deleted = new Map<string, number>();
  const liveLookup = (namespace: string): boolean => {
    const until = deleted.get(namespace);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    deleted.delete(namespace);
    return false;
  };
  return {
    name: 'NamespaceLifecycle',
    handles: (op) => op === 'CREATE' || op === 'DELETE',
    async validate(a) {
      const gr = { group: a.resource.group, resource: a.resource.plural };
      if (a.operation === 'DELETE') {
        if (a.resource.group === '' && a.resource.plural === 'namespaces' && immortal.has(a.name)) {
          throw status.forbidden(gr, a.name, 'this namespace may not be deleted');
        }
        if (a.resource.group === '' && a.resource.plural === 'namespaces') deleted.set(a.name, Date.now() + FORCE_LIVE_LOOKUP_MS);
        return;
      }
      if (!a.resource.namespaced || !a.namespace) return;
      // An access review in a namespace says nothing about the namespace: always answered (isAccessReview).
      if (a.resource.kubernetesGroup === 'authorization.k8s.io' && a.resource.plural === 'localsubjectaccessreviews') return;
      // The watch cache first, as Kubernetes reads its namespace lister; the store when the cache
      // does not have it (yet) or the namespace's deletion was admitted here a moment ago.
      const cached = liveLookup(a.namespace) ? null : await reader.get(NAMESPACES, '', a.namespace, { cached: true });
      const ns = cached ?? (await reader.get(NAMESPACES, '', a.namespace));
      if (!ns) throw status.notFound({ group: '', resource: 'namespaces' }, a.namespace);
      const phase = ns.status?.phase;
      if (phase === 'Terminating' || ns.metadata.deletionTimestamp) {
        throw status.forbidden(gr, a.name, `unable to create new content in namespace ${a.namespace} because it is being terminated`, [
          { reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' },
        ]);
      }
    },
  };
};
