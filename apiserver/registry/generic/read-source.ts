/**
 * What the read paths (get.ts, list.ts, watch.ts, computed.ts) need of a kind's store: its
 * declaration, storage, keys and decoding. GenericStore is one; the interface lies below the store so
 * that the read paths never import it.
 */
import type { ApiObject } from '../../api/object.js';
import type { ResourceDef } from '../../api/resource.js';
import type { GroupResource } from '../../api/status.js';
import type { KeyValue, Storage } from '../../storage/interfaces.js';
import type { CachedKind } from '../../storage/cacher/cacher.js';
import type { KeyScheme } from './keys.js';

export interface ReadSource extends CachedKind {
  readonly def: ResourceDef;
  readonly storage: Storage;
  readonly keys: KeyScheme;
  readonly groupResource: GroupResource;
  /** Decoded with its apiVersion/kind as served. */
  decode(kv: KeyValue, revision?: number): ApiObject;
}
