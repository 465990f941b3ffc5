/**
 * What the generic store asks of admission on every write: the attributes it describes a write with,
 * and the two calls it makes (mutate before the strategy, validate after it). admission/ implements
 * it with its plugin chain; the store knows nothing of plugins.
 */
import type { ApiObject } from '../api/object.js';
import type { ResourceDef } from '../api/resource.js';
import type { UserInfo } from '../api/user-info.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/**
 * Undo steps of admission side effects (a quota charge) for one write attempt: the store runs them,
 * newest first, when a later plugin, the strategy or the write itself fails, and drops them once the
 * write is stored.
 */
export interface AdmissionRollback {
  add(undo: () => Promise<void>): void;
}

export interface AdmissionAttributes {
  operation: Operation;
  resource: ResourceDef;
  subresource: string;
  namespace: string;
  name: string;
  /** The name the request's path addressed: '' for a create by POST (RequestContext.requestName). */
  requestName?: string;
  /** The object being written (absent for DELETE). */
  object?: ApiObject;
  /** The stored object (UPDATE, DELETE). */
  oldObject?: ApiObject;
  user: UserInfo;
  dryRun: boolean;
  /** Where plugins leave warnings for the client (sent as `Warning: 299` headers). */
  warnings: string[];
  /** Where plugins leave audit annotations (`<plugin or webhook>/<key>`); absent when the request is not audited. */
  auditAnnotations?: Record<string, string>;
  /** Where plugins with side effects register their undo. */
  rollback: AdmissionRollback;
}

export interface WriteAdmission {
  /** Mutating admission: may change attributes.object. */
  admit(attributes: AdmissionAttributes): Promise<void>;
  /** Validating admission: accepts or throws an ApiError; never changes the object. */
  validate(attributes: AdmissionAttributes): Promise<void>;
}

/** A rollback list for one write attempt: `revert` runs the undo steps newest first, once. */
export function newAdmissionRollback(): AdmissionRollback & { revert(): Promise<void>; commit(): void } {
  let undo: (() => Promise<void>)[] = [];
  return {
    add: (u) => {
      undo.push(u);
    },
    async revert() {
      const steps = undo.reverse();
      undo = [];
      for (const s of steps) await s().catch(() => {});
    },
    commit() {
      undo = [];
    },
  };
}
