/**
 * What the history group's kinds (DeletedObject, Restore) need from the server: the stores whose
 * writes keep a ledger (custom resources' included, so read on each request) and the server's
 * authorizer, asked per resource. The server provides it (HISTORY_ENV); the registry only reads
 * the ledger and writes through the stores.
 */
import type { UserInfo } from '../../api/user-info.js';
import type { Storage } from '../../storage/interfaces.js';
import type { GenericStore } from '../generic/store.js';
import type { HookDependency } from '../generic/store-hooks.js';

/** One authorization question, as the authorizer's attributes put it (resource requests only). */
export interface AccessQuestion {
  verb: string;
  /** The served group ('' core). */
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

export interface HistoryEnv {
  /** The server's storage (every store's). */
  storage: Storage;
  /** Every store of the server at this moment. */
  stores(): Iterable<GenericStore>;
  /** Whether the user may do what the question asks (the server's authorizer: Allow). */
  may(user: UserInfo, q: AccessQuestion): Promise<boolean>;
}

export const HISTORY_ENV: HookDependency<HistoryEnv> = { name: 'HISTORY_ENV' };

/**
 * The stores deleted objects are looked for in: one per stored resource (several versions of a
 * kind, or a kind served from another's objects, share keys: the first declared stands for them),
 * each recording a ledger.
 */
export function ledgerStores(env: HistoryEnv): GenericStore[] {
  const byRoot = new Map<string, GenericStore>();
  for (const s of env.stores()) {
    const d = s.def;
    if (!s.ledger || d.notStored || d.ephemeral || d.conversion || d.expiresAfterEventTtl) continue;
    const root = s.keys.listPrefix('');
    if (!byRoot.has(root)) byRoot.set(root, s);
  }
  // In key order, so that one continue position (a ledger key) says where a listing resumes.
  return [...byRoot.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s);
}
