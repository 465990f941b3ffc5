import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSqliteStorage } from '../../../apiserver/storage/sqlite/index.js';
import { runCacherConformance } from './cacher-conformance.js';

runCacherConformance('sqlite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-cacher-'));
  const storage = newSqliteStorage({ path: join(dir, 'state.db') });
  return {
    storage,
    async close() {
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
