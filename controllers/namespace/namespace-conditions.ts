/**
 * The conditions a Terminating namespace reports while the namespace controller empties it (Kubernetes'
 * namespaceConditionUpdater): each of the five types is True with a reason and message while something
 * is wrong, and False with its "ok" reason otherwise.
 */
import type { NamespaceStatus } from '../../apiserver/api/generated/types.js';
import { timestamp } from '../../apiserver/api/object-meta.js';

export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export const DISCOVERY_FAILURE = 'NamespaceDeletionDiscoveryFailure';
export const GV_PARSING_FAILURE = 'NamespaceDeletionGroupVersionParsingFailure';
export const CONTENT_FAILURE = 'NamespaceDeletionContentFailure';
export const CONTENT_REMAINING = 'NamespaceContentRemaining';
export const FINALIZERS_REMAINING = 'NamespaceFinalizersRemaining';

const CONDITION_TYPES = [DISCOVERY_FAILURE, GV_PARSING_FAILURE, CONTENT_FAILURE, CONTENT_REMAINING, FINALIZERS_REMAINING];

const OK: Record<string, { reason: string; message: string }> = {
  [DISCOVERY_FAILURE]: { reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  [GV_PARSING_FAILURE]: { reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  [CONTENT_FAILURE]: { reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  [CONTENT_REMAINING]: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  [FINALIZERS_REMAINING]: { reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
};

/** What one pass over the namespace's content left behind. */
export interface ContentTotals {
  /** "<resource>.<group>" → objects still there. */
  remainingByResource: Map<string, number>;
  /** finalizer → objects still carrying it. */
  remainingByFinalizer: Map<string, number>;
}

/** Collects one pass's problems and turns them into the namespace's conditions. */
export class NamespaceConditionUpdater {
  private readonly failing: NamespaceCondition[] = [];
  private readonly contentErrors: string[] = [];

  constructor(private readonly now: () => Date = () => new Date()) {}

  private fail(type: string, reason: string, message: string): void {
    this.failing.push({ type, status: 'True', lastTransitionTime: timestamp(this.now()), reason, message });
  }

  /** Discovery of some group versions failed; `message` is the discovery error. */
  discoveryFailed(message: string, failingGroups: number): void {
    this.fail(DISCOVERY_FAILURE, 'DiscoveryFailed', `Discovery failed for some groups, ${failingGroups} failing: ${message}`);
  }

  /** Deleting one resource's content failed. */
  deleteContentFailed(message: string): void {
    this.contentErrors.push(message);
  }

  /** What remains after the pass. */
  contentTotals(totals: ContentTotals): void {
    const resources = [...totals.remainingByResource]
      .filter(([, n]) => n > 0)
      .map(([r, n]) => `${r} has ${n} resource instances`)
      .sort();
    if (resources.length) this.fail(CONTENT_REMAINING, 'SomeResourcesRemain', `Some resources are remaining: ${resources.join(', ')}`);
    const finalizers = [...totals.remainingByFinalizer]
      .filter(([, n]) => n > 0)
      .map(([f, n]) => `${f} in ${n} resource instances`)
      .sort();
    if (finalizers.length)
      this.fail(
        FINALIZERS_REMAINING,
        'SomeFinalizersRemain',
        `Some content in the namespace has finalizers remaining: ${finalizers.join(', ')}`,
      );
  }

  /**
   * Writes the pass's conditions into `status` (failures, else the "ok" variant of each type); the
   * transition time changes only with the status. Returns whether anything changed.
   */
  update(status: NamespaceStatus): boolean {
    if (this.contentErrors.length) {
      const msgs = [...this.contentErrors].sort();
      this.fail(
        CONTENT_FAILURE,
        'ContentDeletionFailed',
        `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`,
      );
      this.contentErrors.length = 0;
    }
    const conditions = (status.conditions ??= []);
    let changed = false;
    for (const type of CONDITION_TYPES) {
      const next = this.failing.find((c) => c.type === type) ?? {
        type,
        status: 'False',
        lastTransitionTime: timestamp(this.now()),
        ...OK[type],
      };
      const old = conditions.find((c) => c.type === type);
      if (!old) {
        conditions.push(next);
        changed = true;
      } else if (old.status !== next.status || old.reason !== next.reason || old.message !== next.message) {
        if (old.status !== next.status) old.lastTransitionTime = next.lastTransitionTime;
        Object.assign(old, { status: next.status, reason: next.reason, message: next.message });
        changed = true;
      }
    }
    return changed;
  }
}
