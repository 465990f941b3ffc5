/**
 * --watch-cache and --default-watch-cache-size: with the cache, a restarted server serves watches
 * from what it has seen since it started (older resourceVersions get 410, as in Kubernetes); without
 * it, every watch is the store's, which still has the older history.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer } from '../../support/api-server.js';

const CM = '/api/v1/namespaces/default/configmaps';

describe('watch cache flags', () => {
  let dataDir: string;
  let firstRv: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-cache-flags-'));
    const s = await startTestServer({ dataDir });
    firstRv = (await s.client.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'before-restart' } })).body.metadata
      .resourceVersion;
    await s.stop();
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  for (const [flag, cached] of [
    [[], true],
    [['--watch-cache=false'], false],
    [['--default-watch-cache-size=0'], false],
  ] as const) {
    it(`${flag.join(' ') || 'by default'}: the cache is ${cached ? 'on' : 'off'}`, async () => {
      const s = await startTestServer({ dataDir, args: [...flag] });
      try {
        const rv = String(Number(firstRv) - 1);
        const w = await s.client.watch(`${CM}?watch=1&resourceVersion=${rv}`);
        if (cached) {
          assert.equal(w.status, 410);
          const status = (w as unknown as { errorBody: { reason: string; message: string } }).errorBody;
          assert.equal(status.reason, 'Expired');
          assert.match(status.message, new RegExp(`^too old resource version: ${rv} \\(\\d+\\)$`));
        } else {
          const ev = await w.next();
          assert.equal(ev.type, 'ADDED');
          assert.equal(ev.object.metadata.name, 'before-restart');
        }
        w.close();
        assert.equal((await s.client.get(`${CM}/before-restart`)).status, 200);
      } finally {
        await s.stop();
      }
    });
  }
});
