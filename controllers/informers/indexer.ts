/**
 * An informer's local cache (client-go's cache.Indexer): objects by key (`namespace/name`, or `name`
 * for cluster-scoped objects) plus named indexes that map an index value to the keys of the objects
 * that produce it.
 */
import type { ApiObject, KindObject } from '../../apiserver/api/object.js';

/** The values an object is indexed under, e.g. its namespace or its owners' uids. */
export type IndexFunc<T extends KindObject = ApiObject> = (obj: T) => string[];

/** The index every informer has: objects by namespace. */
export const NAMESPACE_INDEX = 'namespace';

/** client-go's MetaNamespaceKeyFunc. */
export function objectKey(obj: KindObject): string {
  const ns = obj.metadata.namespace;
  return ns ? `${ns}/${obj.metadata.name}` : (obj.metadata.name ?? '');
}

export class Indexer<T extends KindObject = ApiObject> {
  private readonly items = new Map<string, T>();
  private readonly indexFuncs = new Map<string, IndexFunc<T>>();
  /** index name → value → keys. */
  private readonly indices = new Map<string, Map<string, Set<string>>>();

  constructor(indexers: Record<string, IndexFunc<T>> = {}) {
    this.addIndexers({ [NAMESPACE_INDEX]: (o) => (o.metadata.namespace ? [o.metadata.namespace] : []), ...indexers });
  }

  /** Adds indexes; existing objects are indexed at once. */
  addIndexers(indexers: Record<string, IndexFunc<T>>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      if (this.indexFuncs.has(name)) throw new Error(`indexer ${JSON.stringify(name)} already exists`);
      this.indexFuncs.set(name, fn);
      this.indices.set(name, new Map());
      for (const [key, obj] of this.items) this.indexOne(name, fn, key, obj);
    }
  }

  hasIndex(name: string): boolean {
    return this.indexFuncs.has(name);
  }

  private indexOne(name: string, fn: IndexFunc<T>, key: string, obj: T): void {
    const index = this.indices.get(name)!;
    for (const value of fn(obj)) {
      let keys = index.get(value);
      if (!keys) index.set(value, (keys = new Set()));
      keys.add(key);
    }
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of this.indexFuncs) {
      const index = this.indices.get(name)!;
      for (const value of fn(obj)) {
        const keys = index.get(value);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(value);
      }
    }
  }

  /** Adds or replaces the object under its key; returns the one it replaced. */
  set(obj: T): T | undefined {
    const key = objectKey(obj);
    const old = this.items.get(key);
    if (old) this.unindex(key, old);
    this.items.set(key, obj);
    for (const [name, fn] of this.indexFuncs) this.indexOne(name, fn, key, obj);
    return old;
  }

  /** Removes the object with this key; returns it. */
  delete(key: string): T | undefined {
    const old = this.items.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.items.delete(key);
    return old;
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  list(): T[] {
    return [...this.items.values()];
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  get size(): number {
    return this.items.size;
  }

  /** The objects indexed under `value` by index `name`. */
  byIndex(name: string, value: string): T[] {
    const index = this.indices.get(name);
    if (!index) throw new Error(`index ${JSON.stringify(name)} does not exist`);
    return [...(index.get(value) ?? [])].map((k) => this.items.get(k)!);
  }
}
