/**
 * What the generic store asks of admission on every write: the attributes it describes a write with,
 * and the two calls it makes (mutate before the strategy, validate after it). admission/ implements
 * it with its plugin chain; the store knows nothing of plugins.
 */
import type { ApiObject } from '../../api/object.js';
import type { ResourceDef } from '../../api/resource.js';
import type { UserInfo } from '../../api/user-info.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/**
 * Undo steps of admission side effects (a quota charge) for one write attempt: the store runs them,
 * newest first, when a later plugin, the strategy or the write itself fails, and drops them once the
 * write is stored. Steps given to `onStored` run instead once the write is stored (a quota's
 * reservation for the write, settled), before the store answers; a failed write drops them.
 */
export interface AdmissionRollback {
  add(undo: () => Promise<void>): void;
  onStored(step: () => Promise<void>): void;
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
  /**
   * The operation's options (`kind` CreateOptions, UpdateOptions or DeleteOptions and the fields the
   * client set; the meta group's apiVersion is the webhook's to add); absent for CONNECT.
   */
  options?: Record<string, unknown>;
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

/**
 * A rollback list for one write attempt: `revert` runs the undo steps newest first, once; `commit`
 * (the write is stored) drops them and runs the stored steps, once. A failing step is skipped: each
 * is a best effort whose failure its plugin has to make safe.
 */
export function newAdmissionRollback(): AdmissionRollback & { revert(): Promise<void>; commit(): Promise<void> } {
  let undo: (() => Promise<void>)[] = [];
  let stored: (() => Promise<void>)[] = [];
  return {
    add: (u) => {
      undo.push(u);
    },
    onStored: (step) => {
      stored.push(step);
    },
    async revert() {
      const steps = undo.reverse();
      undo = [];
      stored = [];
      for (const s of steps) await s().catch(() => {});
    },
    async commit() {
      const steps = stored;
      undo = [];
      stored = [];
      for (const s of steps) await s().catch(() => {});
    },
  };
}
