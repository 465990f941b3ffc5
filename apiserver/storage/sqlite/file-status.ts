/**
 * What the embedded store's files say of it, for the console's overview (/debug/cluster): the
 * database file and its write-ahead log, their sizes (read by stat, so any worker process can
 * answer for the file its supervisor owns).
 */
import { stat } from 'node:fs/promises';

export interface SqliteFileStatus {
  backend: 'sqlite';
  file: string;
  /** Bytes; 0 for a file not (yet) there. */
  size: number;
  walFile: string;
  walSize: number;
}

const sizeOf = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => 0,
  );

export async function sqliteFileStatus(path: string): Promise<SqliteFileStatus> {
  const walFile = `${path}-wal`;
  const [size, walSize] = await Promise.all([sizeOf(path), sizeOf(walFile)]);
  return { backend: 'sqlite', file: path, size, walFile, walSize };
}
