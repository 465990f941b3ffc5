import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NamespaceConditionUpdater, type NamespaceCondition } from '../../../../controllers/namespace/namespace-conditions.js';

const at = (iso: string) => () => new Date(iso);

describe('namespace deletion conditions', () => {
  it('all five are False with their ok reasons when nothing is wrong', () => {
    const status: { conditions?: NamespaceCondition[] } = {};
    assert.equal(new NamespaceConditionUpdater(at('2024-01-01T00:00:00Z')).update(status), true);
    assert.deepEqual(
      status.conditions!.map((c) => [c.type, c.status, c.reason, c.message]),
      [
        ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'],
        ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
        ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
        ['NamespaceContentRemaining', 'False', 'ContentRemoved', 'All content successfully removed'],
        ['NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
      ],
    );
    assert.equal(status.conditions![0].lastTransitionTime, '2024-01-01T00:00:00Z');
    assert.equal(new NamespaceConditionUpdater().update(status), false, 'the same pass changes nothing');
  });

  it('reports discovery failures, content failures, remaining content and finalizers, sorted', () => {
    const status: { conditions?: NamespaceCondition[] } = {};
    new NamespaceConditionUpdater(at('2024-01-01T00:00:00Z')).update(status);
    const u = new NamespaceConditionUpdater(at('2024-01-01T00:01:00Z'));
    u.discoveryFailed('unable to retrieve the complete list of server APIs: metrics.orch.io/v1: 503', 1);
    u.deleteContentFailed('z failed');
    u.deleteContentFailed('a failed');
    u.contentTotals({
      remainingByResource: new Map([
        ['secrets.', 2],
        ['configmaps.', 1],
        ['widgets.example.io', 0],
      ]),
      remainingByFinalizer: new Map([
        ['example.io/keep', 2],
        ['orphan', 1],
      ]),
    });
    assert.equal(u.update(status), true);
    const byType = Object.fromEntries(status.conditions!.map((c) => [c.type, c]));
    assert.deepEqual(byType.NamespaceDeletionDiscoveryFailure, {
      type: 'NamespaceDeletionDiscoveryFailure',
      status: 'True',
      lastTransitionTime: '2024-01-01T00:01:00Z',
      reason: 'DiscoveryFailed',
      message: 'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.orch.io/v1: 503',
    });
    assert.equal(byType.NamespaceDeletionContentFailure.message, 'Failed to delete all resource types, 2 remaining: a failed, z failed');
    assert.equal(byType.NamespaceContentRemaining.reason, 'SomeResourcesRemain');
    assert.equal(
      byType.NamespaceContentRemaining.message,
      'Some resources are remaining: configmaps. has 1 resource instances, secrets. has 2 resource instances',
    );
    assert.equal(byType.NamespaceFinalizersRemaining.reason, 'SomeFinalizersRemain');
    assert.equal(
      byType.NamespaceFinalizersRemaining.message,
      'Some content in the namespace has finalizers remaining: example.io/keep in 2 resource instances, orphan in 1 resource instances',
    );
    assert.equal(
      byType.NamespaceDeletionGroupVersionParsingFailure.lastTransitionTime,
      '2024-01-01T00:00:00Z',
      'unchanged status keeps its time',
    );
  });
});
