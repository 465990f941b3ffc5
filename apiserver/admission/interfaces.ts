/**
 * Admission: plugins see every write after decoding and before storage. Mutating plugins may change
 * the object; validating plugins only accept or refuse (throw an ApiError) and get their own copy.
 * A plugin may be both (LimitRanger defaults, then checks); reads never reach admission.
 */
import type { ApiObject, KindObject } from '../api/object.js';
import type { ApiDomain } from '../api/domain.js';
import type { ResourceDef } from '../api/resource.js';
import type { Definitions } from '../api/schema.js';
import type { Authorizer } from '../authorization/interfaces.js';
import type { AdmissionAttributes, Operation } from '../registry/generic/write-admission.js';

/** The attributes are the store's (registry/generic/write-admission.ts): admission sits above the store. */
export type { AdmissionAttributes, Operation };

export interface AdmissionPlugin {
  readonly name: string;
  /** Whether the plugin wants to see this operation (asked once per resource and operation, which keeps the answer). */
  handles(operation: Operation): boolean;
  /**
   * Whether the plugin may act on writes of this resource (asked once per resource, which keeps the
   * answer); absent: it looks at every resource. A plugin that only checks pods says so here, and the
   * chain does not call it for the other resources' writes.
   */
  handlesResource?(resource: ResourceDef): boolean;
  /** Mutating phase: may change attributes.object. */
  admit?(attributes: AdmissionAttributes): Promise<void>;
  /**
   * Validating phase, after the strategy's validation: accepts or throws an ApiError. The object and
   * oldObject it reads are copies, made when first read: look at the resource first.
   */
  validate?(attributes: Readonly<AdmissionAttributes>): Promise<void>;
}

export interface MutatingPlugin extends AdmissionPlugin {
  admit(attributes: AdmissionAttributes): Promise<void>;
}

export interface ValidatingPlugin extends AdmissionPlugin {
  validate(attributes: Readonly<AdmissionAttributes>): Promise<void>;
}

/** A resource as Kubernetes names it: core is '', others their k8s.io group ('storage.k8s.io'). */
export interface KubeResource {
  group: string;
  resource: string;
}

/** Only the compiler sees this member: the kind of a TypedKubeResource's objects. */
declare const objectKind: unique symbol;

/** A resource whose objects the reader hands out as `T` (resources.ts: kubeResourceOf). */
export interface TypedKubeResource<T extends KindObject = ApiObject> extends KubeResource {
  readonly [objectKind]?: T;
}

/** How fresh a plugin's read has to be. */
export interface ReadOptions {
  /**
   * Whatever this server's watch cache holds, as Kubernetes' plugins read their informers' listers:
   * it may lag the store by the moments a change takes to arrive. Default: a consistent read.
   */
  cached?: boolean;
}

/** How plugins read other objects: the generic store's reads (watch cache), wired by server/. */
export interface ObjectReader {
  /** One object, or null when there is none. */
  get<T extends KindObject = ApiObject>(
    resource: TypedKubeResource<T>,
    namespace: string,
    name: string,
    opts?: ReadOptions,
  ): Promise<T | null>;
  /** Every object of a resource ('' namespace: all namespaces, or cluster-scoped). */
  list<T extends KindObject = ApiObject>(resource: TypedKubeResource<T>, namespace: string, opts?: ReadOptions): Promise<T[]>;
}

/** How plugins with side effects write (NamespaceAutoProvision, ResourceQuota), as the system user. */
export interface ObjectWriter {
  /** Creates an object; AlreadyExists and other API errors are thrown. */
  create(resource: KubeResource, namespace: string, obj: ApiObject): Promise<ApiObject>;
  /**
   * Compare-and-swap of one object's subresource ('' = the object): obj.metadata.resourceVersion must
   * still be the stored one, else a Conflict ApiError is thrown and nothing is written.
   */
  replace(resource: KubeResource, namespace: string, obj: ApiObject, subresource: string): Promise<ApiObject>;
}

/** Everything a plugin factory may use; server/ provides it. */
export interface PluginEnv {
  domain: ApiDomain;
  reader: ObjectReader;
  writer: ObjectWriter;
  authorizer: Authorizer;
  /** Flags some plugins read (DefaultTolerationSeconds). */
  flags: AdmissionFlags;
  /** Calls `changed` after every change to the resource's objects (a watch; resumed when it ends). */
  watch(resource: KubeResource, changed: () => void): void;
  /** The same objects served under another group or version, with the conversion to each (matchPolicy Equivalent). */
  equivalents(def: ResourceDef): Equivalent[];
  metrics: AdmissionMetrics;
  /** The served resources of a kind in a served group (a REST mapping). */
  resourcesOfKind(group: string, kind: string): ResourceDef[];
  /** The served resource of a group, version and plural (ValidatingAdmissionPolicy type-checks against its schema); absent: none is known. */
  resourceFor?(group: string, version: string, plural: string): ResourceDef | undefined;
  /** The schemas the resources' `schemaRef`s point into (a mutating webhook's patched object is checked against them). */
  definitions: Definitions;
}

export interface Equivalent {
  def: ResourceDef;
  /** The object as the equivalent resource serves it. */
  convert(obj: ApiObject): ApiObject;
  /** Back to the requested resource's form. */
  convertBack(obj: ApiObject): ApiObject;
}

/** What admission reports (Kubernetes' admission metrics). */
export interface AdmissionMetrics {
  /** apiserver_admission_webhook_rejection_count. */
  webhookRejection(labels: { name: string; type: 'admit' | 'validating'; operation: string; errorType: string; code: number }): void;
  /** apiserver_admission_webhook_admission_duration_seconds. */
  webhookLatency(labels: { name: string; type: 'admit' | 'validating'; operation: string; rejected: boolean }, seconds: number): void;
}

export interface AdmissionFlags {
  /** --default-not-ready-toleration-seconds, default 300. */
  defaultNotReadyTolerationSeconds: number;
  /** --default-unreachable-toleration-seconds, default 300. */
  defaultUnreachableTolerationSeconds: number;
}

/**
 * Makes a plugin from its configuration (the parsed YAML/JSON of the AdmissionConfiguration entry,
 * undefined when there is none). A bad configuration throws an Error that names what is wrong.
 */
export type PluginFactory = (env: PluginEnv, config: unknown) => AdmissionPlugin;
