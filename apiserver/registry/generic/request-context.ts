import type { UserInfo } from '../../api/user-info.js';

/** What the generic store needs to know about the request it serves. */
export interface RequestContext {
  /** The request's namespace ('' for cluster-scoped resources and all-namespace lists). */
  namespace: string;
  /**
   * The name the request's path addressed (Kubernetes' requestInfo.Name): '' for a create by POST to
   * the collection, whatever name the object carries. Absent for writes not made by a request.
   */
  requestName?: string;
  user: UserInfo;
  dryRun: boolean;
  /** One clock reading per request. */
  now: Date;
  /** Warnings for the client (admission adds to them; the endpoint sends them as Warning headers). */
  warnings?: string[];
  /** The request's admission ran already (an action's CREATE): the writes it makes are not admitted again. */
  admitted?: boolean;
  /** Audit annotations (admission adds to them); absent when the request is not audited. */
  auditAnnotations?: Record<string, string>;
  /**
   * The write's options as the client sent them, without kind and apiVersion: dryRun, fieldManager and
   * fieldValidation of the query for a create, update or patch; the DeleteOptions of a delete.
   * Admission sees them as the operation's CreateOptions, UpdateOptions or DeleteOptions.
   */
  operationOptions?: Record<string, unknown>;
  /** What the revision ledger records an update as (ledger-record.ts): a PUT's 'update' (default), a PATCH's 'patch' or 'apply'. */
  ledgerOperation?: 'update' | 'patch' | 'apply';
}
