/**
 * The RBAC objects in memory, as an informer would keep them: replaced on a (re)list, changed by
 * each watch event; bindings indexed by subject so a decision looks only at the user's bindings.
 */
import type { RbacLister } from './lister.js';
import { subjectKey } from './lister.js';
import type { Binding, ClusterRole, RbacKind, Role } from './types.js';

type RbacObject = Role | Binding;

const objectKey = (o: RbacObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/** Bindings by subject key (the namespace, for RoleBindings, is part of the key). */
class BindingIndex {
  private readonly bySubject = new Map<string, Map<string, Binding>>();
  private readonly keysOf = new Map<string, string[]>();

  constructor(private readonly namespaced: boolean) {}

  put(b: Binding): void {
    this.remove(b);
    const ns = this.namespaced ? (b.metadata.namespace ?? '') : '';
    const keys = [...new Set((b.subjects ?? []).map((s) => subjectKey(s, ns)).filter((k): k is string => k !== undefined))].map(
      (k) => `${ns}|${k}`,
    );
    const id = objectKey(b);
    this.keysOf.set(id, keys);
    for (const k of keys) {
      let set = this.bySubject.get(k);
      if (!set) this.bySubject.set(k, (set = new Map()));
      set.set(id, b);
    }
  }

  remove(b: RbacObject): void {
    const id = objectKey(b);
    for (const k of this.keysOf.get(id) ?? []) {
      const set = this.bySubject.get(k);
      set?.delete(id);
      if (set?.size === 0) this.bySubject.delete(k);
    }
    this.keysOf.delete(id);
  }

  clear(): void {
    this.bySubject.clear();
    this.keysOf.clear();
  }

  *find(namespace: string, keys: readonly string[]): Iterable<Binding> {
    const seen = new Set<string>();
    for (const k of keys) {
      for (const [id, b] of this.bySubject.get(`${namespace}|${k}`) ?? []) {
        if (seen.has(id)) continue;
        seen.add(id);
        yield b;
      }
    }
  }

  get size(): number {
    return this.keysOf.size;
  }
}

export class PolicyCache implements RbacLister {
  private readonly roles = new Map<string, Role>();
  private readonly clusterRoles = new Map<string, ClusterRole>();
  private readonly roleBindings = new BindingIndex(true);
  private readonly clusterRoleBindings = new BindingIndex(false);

  /** An added or modified object. */
  put(kind: RbacKind, obj: RbacObject): void {
    switch (kind) {
      case 'Role':
        this.roles.set(objectKey(obj), obj as Role);
        break;
      case 'ClusterRole':
        this.clusterRoles.set(objectKey(obj), obj as ClusterRole);
        break;
      case 'RoleBinding':
        this.roleBindings.put(obj as Binding);
        break;
      case 'ClusterRoleBinding':
        this.clusterRoleBindings.put(obj as Binding);
        break;
    }
  }

  /** A deleted object. */
  remove(kind: RbacKind, obj: RbacObject): void {
    if (kind === 'Role') this.roles.delete(objectKey(obj));
    else if (kind === 'ClusterRole') this.clusterRoles.delete(objectKey(obj));
    else if (kind === 'RoleBinding') this.roleBindings.remove(obj);
    else this.clusterRoleBindings.remove(obj);
  }

  /** Everything of a kind, as a fresh list shows it. */
  replace(kind: RbacKind, objs: RbacObject[]): void {
    if (kind === 'Role') this.roles.clear();
    else if (kind === 'ClusterRole') this.clusterRoles.clear();
    else if (kind === 'RoleBinding') this.roleBindings.clear();
    else this.clusterRoleBindings.clear();
    for (const o of objs) this.put(kind, o);
  }

  /** Objects held per kind. */
  counts(): Record<RbacKind, number> {
    return {
      Role: this.roles.size,
      ClusterRole: this.clusterRoles.size,
      RoleBinding: this.roleBindings.size,
      ClusterRoleBinding: this.clusterRoleBindings.size,
    };
  }

  role(namespace: string, name: string): Role | undefined {
    return this.roles.get(`${namespace}/${name}`);
  }

  clusterRole(name: string): ClusterRole | undefined {
    return this.clusterRoles.get(`/${name}`);
  }

  clusterRoleBindingsFor(keys: readonly string[]): Iterable<Binding> {
    return this.clusterRoleBindings.find('', keys);
  }

  roleBindingsFor(namespace: string, keys: readonly string[]): Iterable<Binding> {
    return this.roleBindings.find(namespace, keys);
  }
}
