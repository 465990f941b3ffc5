import type { KeyValue } from './interfaces.js';

/** What went wrong in the store, independent of HTTP. Translated to API errors in registry/generic/storage-errors.ts. */
export type StorageErrorCode = 'KeyExists' | 'KeyNotFound' | 'Conflict' | 'Compacted' | 'FutureRevision' | 'Unavailable';

export class StorageError extends Error {
  readonly code: StorageErrorCode;
  readonly key: string;
  /** Conflict: the value stored now. */
  readonly current?: KeyValue;
  /** Compacted: the oldest readable revision; FutureRevision: the current revision. */
  readonly revision?: number;
  /** Compacted / FutureRevision: the revision that was asked for. */
  readonly requestedRevision?: number;

  constructor(
    code: StorageErrorCode,
    key: string,
    extra: { current?: KeyValue; revision?: number; requestedRevision?: number; cause?: unknown } = {},
  ) {
    super(`${code}: ${key}${extra.requestedRevision !== undefined ? ` (revision ${extra.requestedRevision})` : ''}`, {
      cause: extra.cause,
    });
    this.name = 'StorageError';
    this.code = code;
    this.key = key;
    this.current = extra.current;
    this.revision = extra.revision;
    this.requestedRevision = extra.requestedRevision;
  }
}

export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}
