/**
 * What a kind adds to the generic store: small, pure steps over decoded objects. Every method is
 * optional; the generic store does the rest (metadata, finalizers, preconditions, storage).
 */
import type { ApiObject } from './object.js';
import type { ApiDomain } from './domain.js';
import type { FieldError } from './field-errors.js';
import type { UserInfo } from './user-info.js';
import type { PrinterColumn, Verb } from './resource.js';

export interface StrategyContext {
  domain: ApiDomain;
  /** The request's time, one value for the whole request. */
  now: Date;
  /** Who sent the request (e.g. a CertificateSigningRequest records its requestor on create). */
  user?: UserInfo;
}

/**
 * `T` is the kind's generated type (api/generated/types.ts) for a strategy written with
 * typedStrategy(); the store itself only knows ApiObject.
 */
export interface Strategy<T = ApiObject> {
  /** Fills defaulted fields (Kubernetes' SetDefaults_*), on create and on update. */
  applyDefaults?(obj: T, ctx: StrategyContext): void;
  /** Clears or sets server-owned fields before a create (e.g. status). */
  prepareForCreate?(obj: T, ctx: StrategyContext): void;
  /** Carries server-owned fields over from the stored object before an update of the main resource. */
  prepareForUpdate?(obj: T, old: T, ctx: StrategyContext): void;
  /** The kind's own rules on a create, and only then (object metadata is checked by the store). */
  validate?(obj: T, ctx: StrategyContext): FieldError[];
  /**
   * The kind's own rules on an update of the main resource (or a subresource served as its own view,
   * such as scale), and only then: the rules shared with create, which it calls itself, and the
   * update's own (immutability, …). validate() does not run on an update.
   */
  validateUpdate?(obj: T, old: T, ctx: StrategyContext): FieldError[];
  /** Warnings for the client on a valid create (Kubernetes' WarningsOnCreate: deprecated fields, odd values). */
  warningsOnCreate?(obj: T, ctx: StrategyContext): string[];
  /** Warnings for the client on a valid update of the main resource (WarningsOnUpdate). */
  warningsOnUpdate?(obj: T, old: T, ctx: StrategyContext): string[];
  /** Normalizes an object after validation and before it is stored (e.g. Secret stringData → data). */
  canonicalize?(obj: T): void;
  /**
   * Deletion hook: called with a copy of the stored object. Return 'graceful' (after marking the copy,
   * e.g. phase Terminating) when the object must stay until something finalizes it, 'delete' to
   * delete now, or throw an ApiError to refuse.
   */
  beforeDelete?(obj: T, ctx: StrategyContext): 'graceful' | 'delete';
  /**
   * The kind is deleted gracefully in Kubernetes (Pods): a deletion that takes effect at once still
   * answers the object marked with deletionTimestamp and a zero deletionGracePeriodSeconds.
   */
  gracefulDelete?: boolean;
  /** Extra conditions, besides metadata.finalizers, that keep a deleted object stored. */
  pendingFinalization?(obj: T): boolean;
}

/**
 * A subresource that updates part of an object (status, finalize): given the stored object and the
 * request's object, returns the object to store.
 */
export interface SubresourceStrategy<T = ApiObject, V = ApiObject> {
  prepareForUpdate(obj: T, old: T, ctx: StrategyContext): T;
  validateUpdate?(obj: T, old: T, ctx: StrategyContext): FieldError[];
  /** Set when the subresource is read and written as another kind (scale: autoscaling/v1 Scale). */
  view?: SubresourceView<T, V>;
  /**
   * Set when the subresource is an action: a POST of another kind (pods/binding: Binding, pods/eviction:
   * Eviction) that the registry performs on the object (registry/generic/actions.ts); its only verb is create.
   */
  action?: SubresourceKind;
  /**
   * Set when the subresource is a CONNECT one (pods/log, exec, attach, portforward, proxy; services and
   * nodes proxy): the request is proxied to a node agent, a pod or a service endpoint; `kind` names its
   * options kind (PodExecOptions), which discovery lists unless `discoveryKind` says otherwise (pods/log: Pod).
   */
  connect?: { kind: string; discoveryKind?: string };
  /** The verbs served, when not get, patch and update (an action's: create). */
  verbs?: readonly Verb[];
}

/** The kind a subresource reads or takes. */
export interface SubresourceKind {
  group: string;
  version: string;
  kind: string;
  /** Schema name in the generated definitions. */
  schema: string;
}

/**
 * A subresource served as its own kind `V`, computed from the object and written back into it. The
 * handler decodes and schema-checks a view against `schema` before fromView sees it.
 */
export interface SubresourceView<T = ApiObject, V = ApiObject> extends SubresourceKind {
  /** The view of a stored object. */
  toView(obj: T): V;
  /** The object to store: `old` with what the view sets (its resourceVersion stays a precondition). */
  fromView(view: V, old: T): T;
}

/**
 * A strategy written against its kind's generated type, served to the store as one over ApiObject.
 * The store hands a strategy only decoded objects of its kind that passed the schema check, so every
 * present field has its declared JSON type; this is the one place such an object is taken as `T`.
 * Required fields may still be missing until validate/validateUpdate reports them, so strategies keep
 * reading them defensively (`spec.handler ?? ''`).
 */
export function typedStrategy<T extends { metadata: object }>(strategy: Strategy<T>): Strategy {
  // Strategy<T>'s methods take T where Strategy's take ApiObject: the documented one place (above).
  return strategy as unknown as Strategy;
}

/** typedStrategy for a subresource; `V` is the generated type of a subresource served as its own kind. */
export function typedSubresource<T extends { metadata: object }, V extends { metadata: object } = ApiObject>(
  strategy: SubresourceStrategy<T, V>,
): SubresourceStrategy {
  // As typedStrategy: the store hands it only its kind's checked objects.
  return strategy as unknown as SubresourceStrategy;
}

/** A printer column whose cell reads the kind's own type. */
export type TypedColumn<T> = Omit<PrinterColumn, 'cell'> & { cell(obj: T, now: Date): ReturnType<PrinterColumn['cell']> };

/** Printer columns whose cells read the kind's generated type (see typedStrategy). */
export function typedColumns<T extends { metadata: object }>(columns: TypedColumn<T>[]): PrinterColumn[] {
  // As typedStrategy: cells read only the objects of their kind.
  return columns as unknown as PrinterColumn[];
}

/**
 * ObjectMetaFieldsSet: `metadata.name` and `metadata.namespace`, which most kinds' field label
 * conversions accept (a cluster-scoped object has no namespace: it reads '').
 */
export const METADATA_FIELDS: Readonly<Record<string, (obj: ApiObject) => string | undefined>> = {
  'metadata.name': (o) => o.metadata.name,
  'metadata.namespace': (o) => o.metadata.namespace,
};

/** Field selectors whose values read the kind's generated type (see typedStrategy). */
export function typedSelectableFields<T extends { metadata: object }>(
  fields: Record<string, (obj: T) => string | undefined>,
): Record<string, (obj: ApiObject) => string | undefined> {
  // As typedStrategy: a field is read only on objects of its kind.
  return fields as unknown as Record<string, (obj: ApiObject) => string | undefined>;
}
