/** The embedded SQLite backend (kine style); see storage.ts. */
export { newSqliteStorage, type SqliteStorageOptions } from './storage.js';
