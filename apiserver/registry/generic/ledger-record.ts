/**
 * The revision ledger's record: who made one write of an object, how and when. The generic store
 * writes it beside the object in the write's own storage transaction (WriteOptions.alongside), at
 * one ledger key per object; the store's history (etcd's MVCC revisions, the embedded store's rows,
 * kept for --history-retention) then holds one record per write, and ledger-history.ts reads them
 * back with the object's own revisions.
 */
import { alongsideKey } from '../../storage/interfaces.js';
import type { RequestContext } from './request-context.js';

export type LedgerOperation = 'create' | 'update' | 'patch' | 'apply' | 'delete';

export interface LedgerRecord {
  operation: LedgerOperation;
  /** The user's name ('' for a write no request made). */
  user: string;
  /** The field manager the request named, when it named one. */
  fieldManager?: string;
  /** RFC 3339 with milliseconds: the request's clock reading. */
  time: string;
}

/**
 * The ledger key of an object's storage key: the key's alongside key (storage/interfaces.ts), apart
 * from every object prefix (no object watch sees it).
 */
export function ledgerKey(objectKey: string): string {
  return alongsideKey(objectKey);
}

/** The record of the write ctx makes: `operation` is what the store is doing; a request says more (patch, apply). */
export function ledgerRecord(ctx: RequestContext, operation: LedgerOperation): LedgerRecord {
  const manager = ctx.operationOptions?.fieldManager;
  const record: LedgerRecord = {
    operation: operation === 'update' ? (ctx.ledgerOperation ?? 'update') : operation,
    user: ctx.user.name,
    time: ctx.now.toISOString(),
  };
  if (typeof manager === 'string' && manager) record.fieldManager = manager;
  return record;
}

export function encodeLedgerRecord(record: LedgerRecord): Buffer {
  return Buffer.from(JSON.stringify(record));
}

/** The record in bytes read back; a damaged one reads as an update nobody is known to have made. */
export function decodeLedgerRecord(bytes: Buffer): LedgerRecord {
  try {
    const r = JSON.parse(bytes.toString()) as Partial<LedgerRecord>;
    return {
      operation: r.operation ?? 'update',
      user: r.user ?? '',
      time: r.time ?? '',
      ...(r.fieldManager ? { fieldManager: r.fieldManager } : {}),
    };
  } catch {
    return { operation: 'update', user: '', time: '' };
  }
}
