import type { ResourceDeclaration } from '../../api/resource.js';
import type { StoreHooksFactory } from '../store-hooks.js';

/** A served kind as the registry wires it: the API's declaration plus what the store runs around writes. */
export interface KindDeclaration extends ResourceDeclaration {
  /** Asynchronous steps around the store's writes (store-hooks.ts), e.g. Service IP/port allocation. */
  hooks?: StoreHooksFactory;
}
