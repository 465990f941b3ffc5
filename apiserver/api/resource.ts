/**
 * A served resource, declared once: identity, scope, discovery facts, schema and strategy. The resource
 * table (registry/resources/) is a list of these; every endpoint, discovery document and the generic store
 * read them and nothing else.
 */
import type { ApiObject } from './object.js';
import type { Schema } from './schema.js';
import type { Strategy, SubresourceStrategy } from './strategy.js';

export type NameRule = 'dns-subdomain' | 'dns-label' | 'dns-1035-label' | 'path-segment';

/**
 * One column of the kind's Table view (what `kubectl get` prints), as Kubernetes' printers define it.
 * NAME comes first by itself; a kind lists the columns after it, AGE included where kubectl shows it.
 */
export interface PrinterColumn {
  /** As Kubernetes names it: "Type", "Cluster-IP", "Age" (kubectl prints it upper-cased). */
  name: string;
  /** The cell's OpenAPI type; absent: 'string', as most columns are. */
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  /** e.g. "name", "date-time". */
  format?: string;
  /** 0 = always shown; 1 = only with -o wide. */
  priority?: number;
  description?: string;
  /** The cell of one object; `now` is the request's time (for ages). */
  cell(obj: ApiObject, now: Date): string | number | boolean | null;
}

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export const ALL_VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/**
 * A kind that shares another resource's stored objects (Kubernetes' events.k8s.io/v1 Event is stored as
 * core v1 Event): the store keeps it under the storage resource's keys and converts every object it
 * writes (toStorage) and reads (fromStorage), so each API sees the other's objects in its own form.
 */
export interface StorageConversion {
  /** The stored resource, as declared: Kubernetes group name ('' core), version, kind and plural. */
  storage: { kubernetesGroup: string; version: string; kind: string; resource: string };
  /** The served object's fields in the stored form (apiVersion/kind are set by the store). Pure. */
  toStorage(obj: ApiObject): ApiObject;
  /** A stored object's fields in the served form (apiVersion/kind are set by the store). Pure. */
  fromStorage(obj: ApiObject): ApiObject;
}

/**
 * Converts objects to apiVersion, in order; objects already in it are returned as they are and never
 * sent. Rejects with an ApiError (a failed webhook: a 500) and converts nothing then.
 */
export type BatchConversion = (objects: ApiObject[], apiVersion: string) => Promise<ApiObject[]>;

/** How a resource is written down, with its Kubernetes group name ('' core, 'apps', 'storage.k8s.io'). */
export interface ResourceDeclaration {
  kubernetesGroup: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames?: string[];
  categories?: string[];
  namespaced: boolean;
  /** Schema name in api/generated/definitions.ts. */
  schema: string;
  nameRule: NameRule;
  strategy?: Strategy;
  subresources?: Record<string, SubresourceStrategy>;
  verbs?: readonly Verb[];
  /** PUT to a missing object creates it. */
  allowCreateOnUpdate?: boolean;
  /**
   * An update must carry the resourceVersion it replaces: without one it is a 422, not an unconditional
   * write (Kubernetes' strategies whose AllowUnconditionalUpdate is false: Leases, webhook
   * configurations, CRDs and custom resources, …). A scale subresource still may leave it out.
   */
  requireResourceVersionOnUpdate?: boolean;
  /** DELETE answers the deleted object instead of a Success Status. */
  returnDeletedObject?: boolean;
  /** With a status subresource: a create keeps the status it is sent (Nodes register with theirs). */
  statusOnCreate?: boolean;
  /**
   * metadata.generation is set to 1 on create and bumped when anything but metadata and status
   * changes (`true`), or also when the labels change (`'with-labels'`: EndpointSlice);
   * `'create-only'` sets it once and keeps it (PriorityClass).
   */
  trackGeneration?: true | 'with-labels' | 'create-only';
  /** Table columns after NAME; absent = NAME and Created At, as Kubernetes' default table. */
  columns?: PrinterColumn[];
  /**
   * The kind's field label conversion (kube-apiserver's AddFieldLabelConversionFunc for the served
   * version): every label a field selector may name, metadata ones included, each with how its value
   * is read ('' when it reads nothing, as a label GetAttrs does not set). Absent: the default
   * conversion, `metadata.name` and `metadata.namespace` only.
   */
  selectableFields?: Record<string, (obj: ApiObject) => string | undefined>;
  /** Labels the conversion accepts as another's name (Pod `spec.host` → `spec.nodeName`). */
  fieldLabelAliases?: Record<string, string>;
  /** The conversion's error for another label; default `field label not supported: <label>`. */
  unsupportedFieldLabel?: (label: string) => string;
  /** Served from another resource's stored objects, converted both ways. */
  conversion?: StorageConversion;
  /**
   * A conversion that takes a round trip (a custom resource's conversion webhook). The store keeps and
   * caches objects as stored and converts them with it on the way out (to the served version) and in
   * (to the storage version), a list or a page in one call.
   */
  batchConversion?: BatchConversion;
  /** Objects are not kept in storage (Binding acts on pods, ComponentStatus is made on read): no storage version. */
  notStored?: boolean;
  /** A deprecated kind: every request to it is answered with this Warning ("v1 ComponentStatus is deprecated in v1.19+"). */
  deprecationWarning?: string;
  /** With deprecationWarning: the release that removes the version ("1.25"), reported in metrics and audit. */
  removedRelease?: string;
  /** Objects expire the server's --event-ttl after their last write (Events: Kubernetes' TTLFunc). */
  expiresAfterEventTtl?: boolean;
  /** A DELETE (one object or a collection) naming neither propagationPolicy nor orphanDependents is answered with this Warning (Jobs, whose default orphans their pods). */
  defaultPropagationWarning?: string;
  /**
   * Never stored (TokenReview, SelfSubjectReview, the access reviews): the kind only answers POST, with what the server
   * computes from the request (an answer action, registry/generic/actions.ts); `verbs` must be ['create'].
   */
  ephemeral?: boolean;
  /**
   * Subresources that only answer POST with another kind, computed by the server (an answer action:
   * serviceaccounts/token → authentication/v1 TokenRequest); no answer wired = not served.
   */
  createSubresources?: Record<string, CreateSubresource>;
  /**
   * A custom resource: bodies are decoded without type checks (the strategy's schema validation reports
   * wrong types as a 422, as Kubernetes does for custom objects) and strategic merge patch is refused (415).
   */
  unstructured?: boolean;
  /** Fills what an object read from storage gains (a custom resource's schema defaults, as Kubernetes defaults on read). */
  defaultOnRead?(obj: ApiObject): void;
}

/** A POST-only subresource served as its own kind. */
export interface CreateSubresource {
  /** Kubernetes group name ('' core, 'authentication.k8s.io'). */
  kubernetesGroup: string;
  version: string;
  kind: string;
  /** Schema name in api/generated/definitions.ts. */
  schema: string;
}

/** A declaration with the API domain applied. */
export interface ResourceDef extends Omit<ResourceDeclaration, 'verbs'> {
  group: string;
  /** "v1" or "group/version". */
  apiVersion: string;
  listKind: string;
  verbs: readonly Verb[];
  schemaRef: Schema;
}
