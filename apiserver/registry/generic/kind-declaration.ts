import type { ResourceDeclaration } from '../../api/resource.js';
import type { StoreHookEnv, StoreHooksFactory } from './store-hooks.js';
import type { ComputedObjectsFactory, StoreAction } from './actions.js';

/** A served kind as the registry wires it: the API's declaration plus what the store runs around writes. */
export interface KindDeclaration extends ResourceDeclaration {
  /** Asynchronous steps around the store's writes (store-hooks.ts), e.g. Service IP/port allocation. */
  hooks?: StoreHooksFactory;
  /** The actions of the kind's action subresources (api SubresourceStrategy.action), by subresource. */
  actions?: Record<string, StoreAction>;
  /** A POST to the collection performs this action instead of storing the body (the legacy `bindings`). */
  createAction?: StoreAction;
  /** An ephemeral kind's POST, made from the server's environment (history's Restore), when no answer is wired. */
  newCreateAction?: (env: StoreHookEnv) => StoreAction;
  /** The kind's objects are made on read, not stored (ComponentStatus). */
  computed?: ComputedObjectsFactory;
}
