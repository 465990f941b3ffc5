import type { ResourceDef } from '../api/resource.js';

/**
 * Storage keys: `<prefix>/<group>/<resource>/<namespace>/<name>`, the group left out for the core
 * group as Kubernetes does (`/registry/configmaps/default/x`), the namespace for cluster-scoped kinds.
 */
export interface KeyScheme {
  /** The key of one object. */
  objectKey(namespace: string, name: string): string;
  /** The prefix under which list/watch reads (one namespace, or all when namespace is ''). */
  listPrefix(namespace: string): string;
  /** The object name part of a key under listPrefix('') (`ns/name` or `name`). */
  relative(key: string): string;
}

export function newKeyScheme(storagePrefix: string, def: ResourceDef): KeyScheme {
  const root = `${storagePrefix.replace(/\/+$/, '')}/${def.group ? `${def.group}/` : ''}${def.plural}/`;
  return {
    objectKey: (namespace, name) => (def.namespaced ? `${root}${namespace}/${name}` : `${root}${name}`),
    listPrefix: (namespace) => (def.namespaced && namespace ? `${root}${namespace}/` : root),
    relative: (key) => key.slice(root.length),
  };
}
