/**
 * Conformance: keys written with a TTL (Events' --event-ttl) expire with a delete event; a later
 * write without one keeps the key. etcd grants leases no shorter than about a second and revokes
 * them on its own clock, so the waits are generous.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buf, type Fixture } from './fixture.js';
import { WatchRecorder } from './recorder.js';

const TTL_SECONDS = 2;
const EXPIRY_WAIT_MS = 10_000;

async function waitUntilGone(fx: Fixture, key: string): Promise<void> {
  const deadline = Date.now() + EXPIRY_WAIT_MS;
  while (Date.now() < deadline) {
    if ((await fx.storage.get(key)) === null) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.fail(`${key} did not expire within ${EXPIRY_WAIT_MS} ms`);
}

/** Registers the TTL tests; fx() is the running test's fixture. */
export function describeTtl(fx: () => Fixture): void {
  describe('expiry', () => {
    test('a key created or updated with a TTL is deleted after it, with a delete event', async () => {
      const f = fx();
      const { storage, ns } = f;
      const start = await storage.currentRevision();
      const watch = new WatchRecorder(storage, ns, start);
      try {
        const created = await storage.create(`${ns}a`, buf('a1'), { ttlSeconds: TTL_SECONDS });
        const updated = await storage.update(`${ns}a`, buf('a2'), created.modRevision, { ttlSeconds: TTL_SECONDS });
        await storage.create(`${ns}kept`, buf('k'));
        const began = Date.now();
        await waitUntilGone(f, `${ns}a`);
        assert.ok(Date.now() - began >= (TTL_SECONDS - 1) * 1000, 'not before its TTL');
        const events = await watch.waitForEvents(4);
        assert.deepEqual(
          events.map((e) => [e.type, e.kv.key]),
          [
            ['put', `${ns}a`],
            ['put', `${ns}a`],
            ['put', `${ns}kept`],
            ['delete', `${ns}a`],
          ],
        );
        assert.deepEqual(events[3]!.prev, updated);
        assert.notEqual(await storage.get(`${ns}kept`), null);
      } finally {
        watch.stop();
      }
    });

    test('an update without a TTL keeps the key for good', async () => {
      const f = fx();
      const { storage, ns } = f;
      const created = await storage.create(`${ns}b`, buf('b1'), { ttlSeconds: TTL_SECONDS });
      await storage.update(`${ns}b`, buf('b2'), created.modRevision);
      await new Promise((r) => setTimeout(r, (TTL_SECONDS + 2) * 1000));
      assert.equal((await storage.get(`${ns}b`))?.value.toString(), 'b2');
    });
  });
}
