import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newLogBackend } from '../../../apiserver/audit/log-backend.js';
import type { AuditEvent } from '../../../apiserver/audit/types.js';

const big = (i: number) => ({ kind: 'Event', auditID: `id-${i}`, pad: 'x'.repeat(300 * 1024) }) as unknown as AuditEvent;

describe('audit log backend', () => {
  it('rotates past --audit-log-maxsize, and prunes backups by count and by age', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orch-audit-log-'));
    try {
      // Backups from earlier runs: one 40 days old, one 2 days old.
      const old = new Date(Date.now() - 40 * 86_400_000).toISOString().replace(/Z$/, '').replace(/:/g, '-');
      const recent = new Date(Date.now() - 2 * 86_400_000).toISOString().replace(/Z$/, '').replace(/:/g, '-');
      await writeFile(join(dir, `audit-${old}.log`), 'old\n');
      await writeFile(join(dir, `audit-${recent}.log`), 'recent\n');
      await writeFile(join(dir, 'unrelated.txt'), 'keep\n');
      const errors: Error[] = [];
      const b = newLogBackend({
        path: join(dir, 'audit.log'),
        maxSizeMB: 1,
        maxBackups: 2,
        maxAgeDays: 30,
        onError: (e) => errors.push(e),
      });
      for (let i = 0; i < 4; i++) b.process([big(i)]); // ~1.2 MiB: one rotation
      await b.shutdown();
      const files = (await readdir(dir)).sort();
      assert.equal(files.length, 4, files.join(' '));
      assert.ok(!files.includes(`audit-${old}.log`), 'the 40-day-old backup is gone');
      assert.ok(files.includes(`audit-${recent}.log`) && files.includes('unrelated.txt') && files.includes('audit.log'));
      const current = (await readFile(join(dir, 'audit.log'), 'utf8')).trim().split('\n');
      assert.deepEqual(
        current.map((l) => JSON.parse(l).auditID),
        ['id-3'],
      );
      assert.deepEqual(errors, []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
