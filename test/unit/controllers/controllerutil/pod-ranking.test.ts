import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../../apiserver/api/generated/types.js';
import { asKind, type KindObject } from '../../../../apiserver/api/object.js';
import { sortPodsForDeletion } from '../../../../controllers/controllerutil/pod-ranking.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();

function pod(
  name: string,
  o: { node?: string; phase?: string; readyAgo?: number; cost?: string; restarts?: number; createdAgo?: number } = {},
): Pod {
  // Only what the ranking reads: no containers, container statuses without names or images.
  return asKind<Pod>({
    metadata: {
      name,
      uid: name,
      creationTimestamp: at(o.createdAgo ?? 3600_000),
      annotations: o.cost ? { 'controller.orch.io/pod-deletion-cost': o.cost } : {},
    },
    spec: { nodeName: o.node ?? 'n1' },
    status: {
      phase: o.phase ?? 'Running',
      conditions: o.readyAgo !== undefined ? [{ type: 'Ready', status: 'True', lastTransitionTime: at(o.readyAgo) }] : [],
      containerStatuses: [{ restartCount: o.restarts ?? 0 }],
    },
  });
}

const names = (pods: KindObject[]) => pods.map((p) => p.metadata.name);

describe('pod deletion ranking', () => {
  it('puts unassigned, then pending/unknown/running, then not ready first', () => {
    const pods = [
      pod('running-ready', { readyAgo: 1000 }),
      pod('running'),
      pod('unknown', { phase: 'Unknown' }),
      pod('pending', { phase: 'Pending' }),
      pod('unassigned', { node: '', readyAgo: 5 }),
    ];
    assert.deepEqual(names(sortPodsForDeletion(pods, pods, 'orch.io', NOW)), [
      'unassigned',
      'pending',
      'unknown',
      'running',
      'running-ready',
    ]);
  });

  it('then lower deletion cost, then doubled-up nodes, then recently ready, restarts, youth (log scale)', () => {
    const cheap = pod('cheap', { readyAgo: 1000, node: 'a', cost: '-5' });
    const doubled1 = pod('doubled', { readyAgo: 1000, node: 'b' });
    const doubled2 = pod('doubled-peer', { readyAgo: 3600_000 * 24, node: 'b' });
    const fresh = pod('fresh', { readyAgo: 1000, node: 'c' });
    const old = pod('old', { readyAgo: 3600_000 * 24, node: 'd', createdAgo: 3600_000 * 48 });
    const restarts = pod('restarts', { readyAgo: 3600_000 * 24, node: 'e', restarts: 3 });
    const young = pod('young', { readyAgo: 3600_000 * 24, node: 'f', createdAgo: 3600_000 * 25 });
    const pods = [old, fresh, doubled2, restarts, young, cheap, doubled1];
    assert.deepEqual(names(sortPodsForDeletion(pods, pods, 'orch.io', NOW)), [
      'cheap',
      'doubled',
      'doubled-peer',
      'fresh',
      'restarts',
      'young',
      'old',
    ]);
  });

  it('treats times in the same power-of-two age bucket as equal and orders them by uid', () => {
    const a = pod('b-uid', { readyAgo: 3600_000 * 24 });
    const b = pod('a-uid', { readyAgo: 3600_000 * 24 + 60_000 });
    assert.deepEqual(names(sortPodsForDeletion([a, b], [a, b], 'orch.io', NOW)), ['a-uid', 'b-uid']);
  });
});
