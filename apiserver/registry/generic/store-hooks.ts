/**
 * Store hooks: the asynchronous steps a kind adds around the generic store's writes, for what a pure
 * Strategy cannot do — today, Services taking cluster IPs and node ports from the shared allocators
 * (Kubernetes' BeginCreate/BeginUpdate/AfterDelete on the Service registry). A kind's declaration
 * (registry/resources/) names its hooks factory; the factory draws the shared services it needs from
 * the environment by a typed dependency its own registry declares (e.g. SERVICE_ALLOCATORS).
 *
 * The store calls them after validation and admission, right before the write:
 * - beforeCreate / beforeUpdate may fill fields of the object about to be written (allocated values)
 *   and return a transaction; the store commits it once the write succeeded and reverts it when the
 *   write failed or is retried (each compare-and-swap attempt starts by reverting the previous one);
 * - afterDelete runs once an object is really gone (not for a deletion that only sets
 *   deletionTimestamp).
 * In a dry run the hooks still run, with `dryRun` set: they compute what they would do and persist
 * nothing, and the store never commits.
 */
import type { ApiObject } from '../../api/object.js';

/** What a hook knows about the request. */
export interface HookContext {
  /** Check and fill as for a real write, persist nothing. */
  dryRun: boolean;
}

/** The undo/redo of a before-write hook. */
export interface HookTransaction {
  /** The write succeeded: finish (e.g. release what the new object no longer uses). */
  commit(): Promise<void>;
  /** The write failed or is retried: undo (e.g. release what the hook took). */
  revert(): Promise<void>;
}

export interface StoreHooks {
  beforeCreate?(obj: ApiObject, ctx: HookContext): Promise<HookTransaction>;
  beforeUpdate?(obj: ApiObject, old: ApiObject, ctx: HookContext): Promise<HookTransaction>;
  afterDelete?(old: ApiObject, ctx: HookContext): Promise<void>;
}

/** A shared service a hook factory needs, declared by the registry that uses it; the server provides it. */
export interface HookDependency<T> {
  readonly name: string;
  /** Only carries the type. */
  readonly type?: T;
}

/** One provided dependency. */
export interface Provided<T> {
  dependency: HookDependency<T>;
  value: T;
}

/** What the server gives hook factories: the shared services they ask for. */
export interface StoreHookEnv {
  /** The provided value; throws when the server does not provide it (a wiring mistake). */
  need<T>(dependency: HookDependency<T>): T;
}

export function newStoreHookEnv(provided: readonly Provided<unknown>[]): StoreHookEnv {
  const values = new Map(provided.map((p) => [p.dependency, p.value]));
  return {
    need<T>(dependency: HookDependency<T>): T {
      if (!values.has(dependency)) throw new Error(`store hooks need ${dependency.name}, which the server does not provide`);
      return values.get(dependency) as T;
    },
  };
}

/** A declaration's hooks, made once per server from its environment. */
export type StoreHooksFactory = (env: StoreHookEnv) => StoreHooks;

/** A transaction with nothing to do. */
export const NO_TRANSACTION: HookTransaction = { commit: async () => {}, revert: async () => {} };
