/**
 * The Storage contract, checked against a real backend. Every backend runs this same suite.
 *
 * Tests do not assume an empty store (a backend may share one etcd between tests): each works under
 * its own key prefix and only relies on revisions it observed itself.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { Storage } from '../../../apiserver/storage/interfaces.js';
import { describeCompaction } from './conformance-compaction.js';
import { describeWrites } from './conformance-writes.js';
import { describeAlongside } from './conformance-alongside.js';
import { describeBatch } from './conformance-batch.js';
import { describeList } from './conformance-list.js';
import { describeWatch } from './conformance-watch.js';
import { describeTtl } from './conformance-ttl.js';
import { buf, rejectsWith, type Fixture } from './fixture.js';
import { settle, WatchRecorder } from './recorder.js';

export interface StorageUnderTest {
  storage: Storage;
  /** Closes the storage (it may already be closed) and frees what makeStorage set up for it. */
  cleanup(): Promise<void>;
}

/** Registers the conformance suite for one backend; makeStorage runs once per test. */
export function runStorageConformance(name: string, makeStorage: () => Promise<StorageUnderTest>): void {
  describe(`storage conformance: ${name}`, () => {
    let sut: StorageUnderTest;
    let fixture: Fixture;
    const fx = (): Fixture => fixture;

    beforeEach(async () => {
      sut = await makeStorage();
      fixture = { storage: sut.storage, ns: `/conformance-${randomUUID().slice(0, 8)}/` };
    });
    afterEach(async () => {
      await sut.cleanup();
    });

    describeWrites(fx);
    describeAlongside(fx);
    describeBatch(fx);
    describeList(fx);
    describeWatch(fx);
    describeCompaction(fx);
    describeTtl(fx);

    test('close stops watches silently; the closed storage is Unavailable', async () => {
      const { storage, ns } = fx();
      const watcher = new WatchRecorder(storage, ns, await storage.currentRevision());
      await storage.close();
      await rejectsWith(storage.get(`${ns}a`), 'Unavailable');
      await rejectsWith(storage.create(`${ns}a`, buf('a')), 'Unavailable');
      await settle();
      assert.deepEqual([watcher.events.length, watcher.errors.length], [0, 0]);
    });
  });
}
