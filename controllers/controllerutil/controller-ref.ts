/**
 * Owner references between a controller and what it controls (Kubernetes' ControllerRefManager):
 * an object belongs to the controller its controller reference names; a controller adopts orphans
 * its selector matches and releases what it owns but no longer matches. Adoption and release are
 * strategic merge patches of one owner reference, guarded by the object's uid.
 */
import type { KindObject } from '../../apiserver/api/object.js';
import type { OwnerReference } from '../../apiserver/api/object-meta.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { LabelSelector } from '../../apiserver/runtime/selectors/label-selector.js';
import type { ResourceClient } from '../client/api-client.js';
import type { Indexer } from '../informers/indexer.js';

/** The owner reference marked `controller: true`, if any. */
export function controllerRefOf(obj: KindObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

/**
 * The `kind` object a controller reference names, if the cache holds it with that uid (Kubernetes'
 * resolveControllerRef): a reference to a deleted and re-created owner of the same name resolves to
 * nothing.
 */
export function resolveControllerRef<T extends KindObject>(
  indexer: Indexer<T>,
  namespace: string | undefined,
  ref: Pick<OwnerReference, 'kind' | 'name' | 'uid'> | undefined,
  kind: string,
): T | undefined {
  if (ref?.kind !== kind) return undefined;
  const owner = indexer.get(`${namespace}/${ref.name}`);
  return owner?.metadata.uid === ref.uid ? owner : undefined;
}

/** The controller reference a controller puts on what it creates (blocking its owner's foreground deletion). */
export function newControllerRef(owner: KindObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

/** A recheckOwner that reads the owner from the server: undefined once it is gone. */
export function readFromServer<T extends KindObject>(resource: ResourceClient<T>, name: string): () => Promise<T | undefined> {
  return async () => {
    try {
      return await resource.get(name);
    } catch (err) {
      if (isApiError(err, 'NotFound')) return undefined;
      throw err;
    }
  };
}

export interface ClaimOptions<T extends KindObject> {
  owner: KindObject;
  ownerRef: OwnerReference;
  selector: LabelSelector;
  /** Where to patch the candidates. */
  resource: ResourceClient<T>;
  /**
   * Reads the owner afresh before the first adoption; a deleted or replaced owner (another uid) or one
   * being deleted adopts nothing (RecheckDeletionTimestamp).
   */
  recheckOwner: () => Promise<KindObject | undefined>;
}

/**
 * ClaimObjects: the candidates (one namespace) that belong to the owner after adopting matching
 * orphans and releasing owned ones that no longer match. Objects that vanish meanwhile are left out.
 */
export async function claimObjects<T extends KindObject>(candidates: T[], opts: ClaimOptions<T>): Promise<T[]> {
  const { owner, ownerRef, selector, resource } = opts;
  const uid = owner.metadata.uid!;
  const claimed: T[] = [];
  let canAdopt: boolean | undefined;
  for (const obj of candidates) {
    const ref = controllerRefOf(obj);
    const matches = selector.matches(obj.metadata.labels ?? {});
    if (ref) {
      if (ref.uid !== uid) continue;
      if (matches || owner.metadata.deletionTimestamp) {
        claimed.push(obj);
        continue;
      }
      if (obj.metadata.deletionTimestamp) continue;
      await patchIgnoringGone(resource, obj, {
        metadata: { ownerReferences: [{ $patch: 'delete', uid }], uid: obj.metadata.uid },
      });
      continue;
    }
    if (!matches || owner.metadata.deletionTimestamp || obj.metadata.deletionTimestamp) continue;
    if (canAdopt === undefined) {
      const fresh = await opts.recheckOwner();
      canAdopt = !!fresh && fresh.metadata.uid === uid && !fresh.metadata.deletionTimestamp;
    }
    if (!canAdopt) continue;
    const adopted = await patchIgnoringGone(resource, obj, { metadata: { ownerReferences: [ownerRef], uid: obj.metadata.uid } });
    if (adopted) claimed.push(adopted);
  }
  return claimed;
}

async function patchIgnoringGone<T extends KindObject>(resource: ResourceClient<T>, obj: T, patch: unknown): Promise<T | undefined> {
  try {
    return await resource
      .inNamespace(obj.metadata.namespace ?? '')
      .patch(obj.metadata.name!, patch, 'application/strategic-merge-patch+json');
  } catch (err) {
    if (isApiError(err, 'NotFound') || isApiError(err, 'Conflict') || isApiError(err, 'Invalid')) return undefined;
    throw err;
  }
}

/** The index of objects by the uid of their controller. */
export const CONTROLLER_UID_INDEX = 'controllerUid';

/** Adds the controller-uid index to a shared informer's cache (once for all controllers). */
export function ensureControllerIndex<T extends KindObject>(indexer: Indexer<T>): void {
  if (indexer.hasIndex(CONTROLLER_UID_INDEX)) return;
  indexer.addIndexers({
    [CONTROLLER_UID_INDEX]: (o) => {
      const ref = controllerRefOf(o);
      return ref ? [ref.uid] : [];
    },
  });
}
