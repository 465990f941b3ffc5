/**
 * ControllerRevision history for StatefulSets and DaemonSets (Kubernetes' pkg/controller/history and
 * the two controllers' use of it). A revision's data is the patch that puts its Pod template back:
 * `{"spec":{"template":{…,"$patch":"replace"}}}`, which is what `kubectl rollout undo` applies. Each
 * sync finds the owner's revisions (adopting matching orphans), reuses the newest equal one, bumps an
 * older equal one to the next number (a rollback) or creates a new one, and keeps at most
 * `revisionHistoryLimit` revisions that no Pod, nor the current or update revision, uses.
 */
import type { ControllerRevision } from '../../apiserver/api/generated/types.js';
import type { KindObject } from '../../apiserver/api/object.js';
import { deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { LabelSelector } from '../../apiserver/runtime/selectors/label-selector.js';
import type { ApiClient, TypedResource } from '../client/api-client.js';
import type { Informer } from '../informers/informer.js';
import { NAMESPACE_INDEX } from '../informers/indexer.js';
import { claimObjects, newControllerRef } from './controller-ref.js';
import type { PodTemplate } from './pod-template.js';
import { CONTROLLERREVISIONS } from './resources.js';

export const DEFAULT_REVISION_HISTORY_LIMIT = 10;
/** The label naming the revision a Pod was made from (apps/v1 ControllerRevisionHashLabelKey). */
export const REVISION_LABEL = 'controller-revision-hash';

/** What the history reads of an owner (a StatefulSet or a DaemonSet): its Pod template and collision count. */
export interface HistoryOwner extends KindObject {
  spec?: { template?: PodTemplate };
  status?: { collisionCount?: number };
}

/** The owner kind's facts the history needs. */
export interface HistoryKind {
  resource: TypedResource<HistoryOwner>;
  kind: string;
  /** The label a revision carries its hash in. */
  hashLabel: string;
  /** The hash that names a revision of this data (ComputeHash or HashControllerRevision). */
  hash(owner: HistoryOwner, data: Record<string, unknown>, collisionCount: number | undefined): string;
}

/** The revision's data: a strategic merge patch that replaces the owner's Pod template (getPatch). */
export function revisionData(owner: HistoryOwner): Record<string, unknown> {
  const template = owner.spec?.template ?? {};
  return { spec: { template: { ...deepCopy(template), $patch: 'replace' } } };
}

const collisionCountOf = (owner: HistoryOwner) => owner.status?.collisionCount;
const revisionNumber = (r: ControllerRevision) => Number(r.revision ?? 0);
const dataOf = (r: ControllerRevision) => r.data;

/** A name held by a revision of other data: the owner's status.collisionCount has to go up. */
export class RevisionCollisionError extends Error {}

export interface Revisions {
  /** The owner's revisions, oldest first (after any bump or creation). */
  revisions: ControllerRevision[];
  /** The revision of the owner's current template. */
  update: ControllerRevision;
}

export class ControllerHistory {
  constructor(
    private readonly client: ApiClient,
    readonly informer: Informer<ControllerRevision>,
    private readonly kind: HistoryKind,
  ) {}

  /** A revision of the owner's current template, numbered `revision` (NewControllerRevision). */
  newRevision(owner: HistoryOwner, revision: number): ControllerRevision {
    const data = revisionData(owner);
    const hash = this.kind.hash(owner, data, collisionCountOf(owner));
    const template = owner.spec?.template;
    return {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: `${owner.metadata.name!.slice(0, 223)}-${hash}`,
        namespace: owner.metadata.namespace,
        labels: { ...template?.metadata?.labels, [this.kind.hashLabel]: hash },
        ...(owner.metadata.annotations ? { annotations: { ...owner.metadata.annotations } } : {}),
        ownerReferences: [newControllerRef(owner, 'apps/v1', this.kind.kind)],
      },
      data,
      revision,
    };
  }

  /** The owner's revisions, oldest first, adopting orphans its selector matches (ListControllerRevisions + claim). */
  async owned(
    owner: HistoryOwner,
    selector: LabelSelector,
    recheckOwner: () => Promise<KindObject | undefined>,
  ): Promise<ControllerRevision[]> {
    const ns = owner.metadata.namespace ?? '';
    const claimed = await claimObjects(this.informer.indexer.byIndex(NAMESPACE_INDEX, ns), {
      owner,
      ownerRef: newControllerRef(owner, 'apps/v1', this.kind.kind),
      selector,
      resource: this.client.resource(CONTROLLERREVISIONS, ns),
      recheckOwner,
    });
    return claimed.sort((a, b) => revisionNumber(a) - revisionNumber(b));
  }

  /**
   * The update revision for the owner's template among `revisions` (getStatefulSetRevisions /
   * constructHistory): the newest revision when it is equal, an older equal one bumped to the next
   * number, or a new one. A name held by other data raises the owner's status.collisionCount (so
   * the next sync names it differently) and throws.
   */
  async sync(owner: HistoryOwner, revisions: ControllerRevision[]): Promise<Revisions> {
    const next = revisions.length ? revisionNumber(revisions[revisions.length - 1]) + 1 : 1;
    const wanted = this.newRevision(owner, next);
    const equal = revisions.filter((r) => jsonEqual(dataOf(r), dataOf(wanted)));
    const newestEqual = equal[equal.length - 1];
    if (newestEqual && newestEqual === revisions[revisions.length - 1]) return { revisions, update: newestEqual };
    if (newestEqual) {
      const bumped = await this.client
        .resource(CONTROLLERREVISIONS, owner.metadata.namespace)
        .update({ ...deepCopy(newestEqual), revision: next });
      return { revisions: [...revisions.filter((r) => r !== newestEqual), bumped], update: bumped };
    }
    try {
      const created = await this.create(wanted);
      return { revisions: [...revisions, created], update: created };
    } catch (err) {
      if (err instanceof RevisionCollisionError) await this.bumpCollisionCount(owner);
      throw err;
    }
  }

  /** Creates a revision; one already there with the same data is it, one with other data a collision. */
  private async create(revision: ControllerRevision): Promise<ControllerRevision> {
    const client = this.client.resource(CONTROLLERREVISIONS, revision.metadata.namespace);
    try {
      return await client.create(revision);
    } catch (err) {
      if (!isApiError(err, 'AlreadyExists')) throw err;
      const existing = await client.get(revision.metadata.name!);
      if (jsonEqual(dataOf(existing), dataOf(revision))) return existing;
      throw new RevisionCollisionError(`ControllerRevision ${revision.metadata.name} exists with other data`);
    }
  }

  /**
   * Deletes the oldest revisions beyond `limit` among those not `live` (by name): the current and
   * update revisions and those Pods run are always kept (truncateHistory / cleanupHistory).
   */
  async truncate(revisions: ControllerRevision[], live: Set<string>, limit: number): Promise<void> {
    const history = revisions.filter((r) => !live.has(r.metadata.name!));
    for (const r of history.slice(0, Math.max(0, history.length - limit))) {
      try {
        await this.client
          .resource(CONTROLLERREVISIONS, r.metadata.namespace)
          .delete(r.metadata.name!, { preconditions: { uid: r.metadata.uid } });
      } catch (err) {
        if (!isApiError(err, 'NotFound') && !isApiError(err, 'Conflict')) throw err;
      }
    }
  }

  private async bumpCollisionCount(owner: HistoryOwner): Promise<void> {
    const client = this.client.resource(this.kind.resource, owner.metadata.namespace);
    const fresh = await client.get(owner.metadata.name!);
    const status = fresh.status ?? {};
    fresh.status = { ...status, collisionCount: (status.collisionCount ?? 0) + 1 };
    await client.update(fresh, 'status');
  }
}
