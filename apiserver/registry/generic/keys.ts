import type { ResourceDef } from '../../api/resource.js';
import type { ApiDomain } from '../../api/domain.js';
import { storageResource } from './conversion.js';

/**
 * Storage keys: `<prefix>/<group>/<resource>/<namespace>/<name>`, the group left out for the core
 * group as Kubernetes does (`/registry/configmaps/default/x`), the namespace for cluster-scoped kinds.
 * A kind with a storage conversion uses the keys of the resource it shares (conversion.ts).
 */
export interface KeyScheme {
  /** The key of one object. */
  objectKey(namespace: string, name: string): string;
  /** The prefix under which list/watch reads (one namespace, or all when namespace is ''). */
  listPrefix(namespace: string): string;
  /** The object name part of a key under listPrefix('') (`ns/name` or `name`). */
  relative(key: string): string;
}

export function newKeyScheme(storagePrefix: string, def: ResourceDef, domain: ApiDomain): KeyScheme {
  const { group, resource } = storageResource(def, domain);
  const root = `${storagePrefix.replace(/\/+$/, '')}/${group ? `${group}/` : ''}${resource}/`;
  return {
    objectKey: (namespace, name) => (def.namespaced ? `${root}${namespace}/${name}` : `${root}${name}`),
    listPrefix: (namespace) => (def.namespaced && namespace ? `${root}${namespace}/` : root),
    relative: (key) => key.slice(root.length),
  };
}
