/**
 * The server's stores, read by what the stores are built with: admission plugins read and write other
 * objects through them, authenticators read ServiceAccounts, Secrets and Pods, the storage metrics
 * count their objects. One reference, set once the stores exist, instead of a closure per reader.
 */
import type { ResourceDef } from '../api/resource.js';
import type { GenericStore } from '../registry/generic/store.js';

export class LateStores {
  private map: Map<ResourceDef, GenericStore> | undefined;

  /** Binds the stores (custom resources later add theirs to the same map). */
  set(stores: Map<ResourceDef, GenericStore>): void {
    this.map = stores;
  }

  /** The stores; throws when read before they are built. */
  readonly get = (): Map<ResourceDef, GenericStore> => {
    if (!this.map) throw new Error('the stores are read before they are built');
    return this.map;
  };

  /** The stores, or undefined before they are built. */
  get built(): Map<ResourceDef, GenericStore> | undefined {
    return this.map;
  }
}
