/** A throwaway embedded store for allocator tests. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { Storage } from '../../../../../../apiserver/storage/interfaces.js';
import { newSqliteStorage } from '../../../../../../apiserver/storage/sqlite/index.js';

/** Registers hooks that open one SQLite store for the current scope; call the getter inside tests. */
export function useTempStorage(): () => Storage {
  let dir = '';
  let storage: Storage | undefined;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-alloc-'));
    storage = newSqliteStorage({ path: join(dir, 'state.db') });
  });
  after(async () => {
    await storage?.close();
    await rm(dir, { recursive: true, force: true });
  });
  return () => storage!;
}
