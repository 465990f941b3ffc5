/**
 * The ledger's history read two ways on real stores: from the storage's index of a record's writes
 * (Storage.alongsideHistory, a page in a few requests) and by the walk, a read per write, that the
 * ledger falls back to where the index lacks writes (etcd data written before it existed). The same
 * seeded sequence of creates, updates and deletes is written to two objects, one with index entries
 * and one without, with a compaction part way; every page of their histories must agree.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { ApiObject } from '../../../apiserver/api/object.js';
import { encodeLedgerRecord, ledgerKey } from '../../../apiserver/registry/generic/ledger-record.js';
import { readHistory, type HistorySource, type ObjectRevision } from '../../../apiserver/registry/generic/ledger-history.js';
import { newEtcdStorage } from '../../../apiserver/storage/etcd3/index.js';
import type { Storage } from '../../../apiserver/storage/interfaces.js';
import { newSqliteStorage } from '../../../apiserver/storage/sqlite/index.js';
import { useEtcd } from '../../support/etcd.js';

const etcd = useEtcd();

/** A small seeded generator (mulberry32): a failure replays from its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Written {
  key: string;
  modRevision: number;
  exists: boolean;
}

/** One write of the object at `w.key`, with its ledger record beside it (indexed or not). */
async function write(
  storage: Storage,
  w: Written,
  op: 'create' | 'update' | 'delete',
  body: object,
  indexed: boolean,
  i: number,
): Promise<void> {
  const alongside = {
    key: ledgerKey(w.key),
    value: encodeLedgerRecord({ operation: op, user: `user-${i % 3}`, time: `2026-12-03T00:00:${String(i % 60).padStart(2, '0')}.000Z` }),
    ...(indexed ? { indexSeconds: 3600 } : {}),
  };
  const value = Buffer.from(JSON.stringify(body));
  if (op === 'create') w.modRevision = (await storage.create(w.key, value, { alongside })).modRevision;
  else if (op === 'update') w.modRevision = (await storage.update(w.key, value, w.modRevision, { alongside })).modRevision;
  else w.modRevision = (await storage.delete(w.key, w.modRevision, { alongside })).modRevision;
  w.exists = op !== 'delete';
}

function source(storage: Storage): HistorySource {
  return {
    storage,
    decode: async (kv) => {
      const object = JSON.parse(kv.value.toString()) as ApiObject;
      object.metadata.resourceVersion = String(kv.modRevision);
      return object;
    },
  };
}

/** Every page of the object's history at `limit` a page, the resourceVersions left out (the two objects' differ). */
async function pages(storage: Storage, key: string, limit: number): Promise<Omit<ObjectRevision, 'resourceVersion'>[][]> {
  const out: Omit<ObjectRevision, 'resourceVersion'>[][] = [];
  let from: number | undefined;
  for (let n = 0; n < 1000; n++) {
    const page = await readHistory(source(storage), key, { limit, from });
    assert.ok(page.found);
    out.push(
      page.items.map(({ resourceVersion: _, ...rest }) => {
        // A create or whole-object patch carries the object, resourceVersion and all: drop it there too.
        const patch = rest.patch.map((p) =>
          p.path === '' && p.op === 'add' ? { ...p, value: { ...(p.value as ApiObject), metadata: {} } } : p,
        );
        return { ...rest, patch: patch.filter((p) => p.path !== '/metadata/resourceVersion') };
      }),
    );
    if (!page.next) return out;
    from = page.next;
  }
  assert.fail('history pages did not end');
}

async function sameHistories(storage: Storage, seed: number): Promise<void> {
  const rand = random(seed);
  const indexed: Written = { key: `/registry/configmaps/ns-${seed}/indexed`, modRevision: 0, exists: false };
  const walked: Written = { key: `/registry/configmaps/ns-${seed}/walked`, modRevision: 0, exists: false };
  const steps = 80;
  const compactAt = 20 + Math.floor(rand() * 20);
  for (let i = 0; i < steps; i++) {
    const op = !indexed.exists ? 'create' : rand() < 0.12 ? 'delete' : 'update';
    const body = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x' },
      data: { step: String(i), n: String(Math.floor(rand() * 5)) },
    };
    await write(storage, indexed, op, body, true, i);
    await write(storage, walked, op, body, false, i);
    if (i === compactAt) await storage.compact(indexed.modRevision);
  }
  for (const limit of [1, 3, 7, 50, 500]) {
    const fromIndex = await pages(storage, indexed.key, limit);
    const byWalk = await pages(storage, walked.key, limit);
    assert.deepEqual(fromIndex, byWalk, `seed ${seed}, limit ${limit}`);
    // The compaction bounds both: the revisions listed are those from the compacted one on.
    assert.equal(fromIndex.flat().length, steps - compactAt, `seed ${seed}, limit ${limit}: the writes in the window`);
  }
}

describe('ledger history: the index and the walk read the same history', () => {
  test('etcd', async () => {
    const storage = newEtcdStorage({ endpoints: [etcd()] });
    try {
      for (const seed of [1, 2, 3]) await sameHistories(storage, seed);
    } finally {
      await storage.close();
    }
  });

  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  test('the embedded store', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orch-ledger-index-'));
    dirs.push(dir);
    const storage = newSqliteStorage({ path: join(dir, 'state.db') });
    try {
      for (const seed of [1, 2, 3]) await sameHistories(storage, seed);
    } finally {
      await storage.close();
    }
  });
});
