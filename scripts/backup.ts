#!/usr/bin/env node
/**
 * orch-backup (npm run backup --): online backups of the embedded store, shaped like etcd's
 * `etcdctl snapshot save` / `etcdutl snapshot status|restore`.
 *
 *   orch-backup save --data-dir DIR FILE       copy DIR/state.db to FILE while the API server runs
 *   orch-backup status FILE                    check FILE and print its revision, keys and size (JSON)
 *   orch-backup restore FILE --data-dir DIR    make DIR/state.db from FILE (DIR must hold no state.db)
 *
 * `save` uses SQLite's online backup API (better-sqlite3's db.backup()) on a connection of its own,
 * copying every page in one step: one read transaction, so the copy is the store as of one revision,
 * with every write committed before it began (the API server answers a write only after its commit),
 * while the server goes on writing (WAL: readers do not block the writer). It writes FILE.partial,
 * checks it (PRAGMA integrity_check) and renames it to FILE, so FILE is never half a snapshot.
 *
 * Revisions are the store's row ids (AUTOINCREMENT, counted in sqlite_sequence, which the copy
 * holds): a server started on a restored data dir goes on from the snapshot's revision, so
 * resourceVersions keep increasing and clients that watch again from an older one get 410 Gone only
 * if it was compacted. The data dir's certificates and keys (certs/, tokens.csv, kubeconfigs) are
 * files: copy them as files; the snapshot holds the store only.
 *
 * Exit codes: 0 done, 1 failed, 2 bad command line.
 */
import { existsSync, renameSync, rmSync, statSync, copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';

const USAGE = `orch-backup: online backups of orch's embedded store (state.db)

Usage:
  orch-backup save --data-dir DIR FILE       copy DIR/state.db to FILE while the API server runs
  orch-backup status FILE                    check FILE and print its revision, keys and size (JSON)
  orch-backup restore FILE --data-dir DIR    make DIR/state.db from FILE (DIR must hold no state.db)

For the etcd store use etcd's own tools: etcdctl snapshot save FILE, etcdutl snapshot restore FILE.
`;

class UsageError extends Error {}

interface Parsed {
  command: string;
  dataDir?: string;
  file?: string;
}

function parse(argv: string[]): Parsed {
  const positional: string[] = [];
  let dataDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') throw new UsageError('');
    if (a === '--data-dir') {
      if (i + 1 >= argv.length) throw new UsageError('--data-dir needs a value');
      dataDir = argv[++i];
    } else if (a.startsWith('--data-dir=')) dataDir = a.slice('--data-dir='.length);
    else if (a.startsWith('-')) throw new UsageError(`unknown flag: ${a}`);
    else positional.push(a);
  }
  const [command, file, ...extra] = positional;
  if (!command) throw new UsageError('');
  if (!['save', 'status', 'restore'].includes(command)) throw new UsageError(`unknown command "${command}"`);
  if (!file) throw new UsageError(`${command} needs a FILE`);
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  if (command !== 'status' && !dataDir) throw new UsageError(`${command} needs --data-dir`);
  if (command === 'status' && dataDir) throw new UsageError('status takes no --data-dir');
  return { command, dataDir, file };
}

/** What a snapshot holds. */
interface SnapshotStatus {
  /** The store's revision when the snapshot was taken: the last row id of the kine table. */
  revision: number;
  /** Keys that exist (not deleted) at that revision. */
  keys: number;
  /** Rows (revisions) the snapshot still holds. */
  rows: number;
  compactedRevision: number;
  bytes: number;
}

/** Checks a database file (integrity_check) and reads its figures; throws when it is not a sound orch store. */
function snapshotStatus(file: string): SnapshotStatus {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`${file} is damaged: integrity_check says ${String(integrity)}`);
    const hasKine = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kine'").get();
    if (!hasKine) throw new Error(`${file} is not an orch store (no kine table)`);
    const seq = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'kine'").get() as { seq: number } | undefined;
    const rows = (db.prepare('SELECT count(*) AS n FROM kine').get() as { n: number }).n;
    const keys = (
      db
        .prepare('SELECT count(*) AS n FROM kine AS k WHERE k.deleted = 0 AND k.id = (SELECT max(id) FROM kine WHERE name = k.name)')
        .get() as { n: number }
    ).n;
    const compacted = db.prepare("SELECT value FROM meta WHERE name = 'compact_rev'").get() as { value: number } | undefined;
    return { revision: seq?.seq ?? 0, keys, rows, compactedRevision: compacted?.value ?? 0, bytes: statSync(file).size };
  } finally {
    db.close();
  }
}

/** An online, consistent copy of `<dataDir>/state.db` at `file` (see the header). */
async function saveSnapshot(dataDir: string, file: string): Promise<SnapshotStatus> {
  const source = join(dataDir, 'state.db');
  if (!existsSync(source)) throw new Error(`${source} does not exist: is --data-dir the API server's?`);
  const partial = `${resolve(file)}.partial`;
  rmSync(partial, { force: true });
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    // All pages in one step: one read transaction, one revision (a multi-step copy restarts whenever the server writes).
    await db.backup(partial, { progress: () => 0x7fffffff });
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    db.close();
  }
  try {
    const status = snapshotStatus(partial);
    renameSync(partial, file);
    return { ...status, bytes: statSync(file).size };
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
}

/** `<dataDir>/state.db` from a snapshot; refuses a data dir that already holds a store. */
function restoreSnapshot(file: string, dataDir: string): SnapshotStatus {
  const status = snapshotStatus(file);
  const target = join(dataDir, 'state.db');
  for (const f of [target, `${target}-wal`, `${target}-shm`]) {
    if (existsSync(f)) throw new Error(`${f} exists: restore into a data dir without a store (move it away first)`);
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  copyFileSync(file, `${target}.partial`);
  renameSync(`${target}.partial`, target);
  return status;
}

async function main(): Promise<void> {
  let parsed: Parsed;
  try {
    parsed = parse(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    if (err.message === '') {
      process.stdout.write(USAGE);
      process.exit(process.argv.slice(2).some((a) => a === '--help' || a === '-h') ? 0 : 2);
    }
    process.stderr.write(`orch-backup: ${err.message}\n${USAGE}`);
    process.exit(2);
  }
  const { command, dataDir, file } = parsed;
  const began = Date.now();
  const took = () => `${((Date.now() - began) / 1000).toFixed(1)}s`;
  try {
    if (command === 'save') {
      const s = await saveSnapshot(dataDir!, file!);
      process.stdout.write(
        `saved ${join(dataDir!, 'state.db')} at revision ${s.revision} (${s.keys} keys, ${s.bytes} bytes) to ${file} in ${took()}\n`,
      );
    } else if (command === 'status') {
      process.stdout.write(`${JSON.stringify({ ...snapshotStatus(file!), integrity: 'ok' })}\n`);
    } else {
      const s = restoreSnapshot(file!, dataDir!);
      process.stdout.write(
        `restored revision ${s.revision} (${s.keys} keys) into ${join(dataDir!, 'state.db')}; ` +
          `start orch-apiserver --data-dir ${dataDir} (with the certificates and keys of the backed-up data dir)\n`,
      );
    }
  } catch (err) {
    process.stderr.write(`orch-backup: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

await main();
