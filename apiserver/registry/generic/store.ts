/**
 * The generic store: one per served resource. Object ↔ storage key, metadata, finalizers and graceful
 * deletion, dry run, admission, the kind's strategy and its hooks (store-hooks.ts: run after
 * validation, right before each write) — in named steps. Each write is one WriteTransaction
 * (write-transaction.ts), committed once the write is stored and reverted otherwise, and goes to a
 * WriteTarget (write-target.ts): the storage, or for a dry run a stand-in that stores nothing. Reads
 * (get/list/watch, with their resourceVersion rules and the watch cache) live in get.ts, list.ts and
 * watch.ts over the narrow ReadSource: everything that reads a kind's objects reads through the store.
 */
import type { BatchCreate, Storage, KeyValue, WriteOptions } from '../../storage/interfaces.js';
import type { Cacher } from '../../storage/cacher/cacher.js';
import { isStorageError } from '../../storage/errors.js';
import type { ApiList, ApiObject } from '../../api/object.js';
import { deepCopy, jsonEqual } from '../../api/object.js';
import type { ResourceDef } from '../../api/resource.js';
import type { ApiDomain } from '../../api/domain.js';
import type { StrategyContext } from '../../api/strategy.js';
import { goTyped, invalid } from '../../api/field-errors.js';
import * as status from '../../api/status.js';
import {
  newAdmissionRollback,
  type AdmissionAttributes,
  type AdmissionRollback,
  type Operation,
  type WriteAdmission,
} from './write-admission.js';
import type { KeyScheme } from './keys.js';
import { newKeyScheme } from './keys.js';
import { decodeObject, encodeObject } from './codec.js';
import { servedObject, servedObjects, storageVersionObject, storedInOtherVersion, storedObject } from './conversion.js';
import { interpretStorageError } from './storage-errors.js';
import type { RequestContext } from './request-context.js';
import { timestamp } from '../../api/object-meta.js';
import {
  carryOverUpdateMeta,
  ensureNameMatches,
  ensureNamespace,
  fillCreateMeta,
  generateName,
  hasFinalizers,
} from './object-meta-rules.js';
import { validateForCreate, validateForUpdate } from './validate-object.js';
import { resetStatusForMainResource } from './status-subresource.js';
import { checkDeletePreconditions, type DeleteOptions } from './delete-options.js';
import { NO_TRANSACTION, type HookTransaction, type StoreHooks } from './store-hooks.js';
import { WriteTransaction } from './write-transaction.js';
import { dryRunTarget, storageTarget, type WriteTarget } from './write-target.js';
import { historyList, objectAtRevision, type HistoryQuery, type ObjectRevisionList } from './history-view.js';
import { encodeLedgerRecord, ledgerKey, ledgerRecord, type LedgerOperation } from './ledger-record.js';
import { deletionFinalizers } from './deletion-propagation.js';
import { getObject, type GetOptions } from './get.js';
import { listObjects } from './list.js';
import type { ListOptions } from './list-options.js';
import { DEFAULT_BOOKMARK_INTERVAL_MS, watchObjects, type Watch, type WatchSink } from './watch.js';
import { convertingSink } from './converting-sink.js';
import type { ActionResult, ComputedObjects, StoreAction, StoreLookup } from './actions.js';
import { getComputed, listComputed } from './computed.js';
import type { DeleteResult, ObjectStore, TrackFields, UpdateFn, UpdateOptions, UpdateResult } from './object-store.js';
import type { ReadSource } from './read-source.js';

const GENERATE_NAME_ATTEMPTS = 8;

/** The admission of a write whose request was admitted already. */
const ADMITTED: WriteAdmission = { admit: async () => {}, validate: async () => {} };

export interface StoreConfig {
  def: ResourceDef;
  storage: Storage;
  storagePrefix: string;
  domain: ApiDomain;
  admission: WriteAdmission;
  /** The kind's hooks (store-hooks.ts), made by run-server from the declaration's factory. */
  hooks?: StoreHooks;
  /** The watch cache serving lists, gets and watches; absent: everything is read from the store. */
  cacher?: Cacher;
  /** How often BOOKMARK events go out to watchers that allow them; default 60 s. */
  bookmarkIntervalMs?: number;
  /** The kind's action subresources (actions.ts), by subresource name. */
  actions?: Record<string, StoreAction>;
  /** What a POST to the collection does instead of a create (actions.ts). */
  createAction?: StoreAction;
  /** Set for a kind whose objects are made on read (actions.ts): gets and lists read them. */
  computed?: ComputedObjects;
  /** The other stores, for actions. */
  lookup?: StoreLookup;
  /** --event-ttl in seconds: how long objects of kinds that expire (Events) live after their last write. */
  eventTtlSeconds?: number;
  /**
   * --history-retention in seconds; > 0: every write records its ledger entry beside the object
   * (ledger-record.ts), and a delete's entry leaves the store once that long has passed.
   */
  ledgerRetentionSeconds?: number;
}

/** An object from the watch cache and the stored state it stands for. */
interface CachedState {
  kv: KeyValue;
  object: ApiObject;
}

/** The options object admission sees for each write (Kubernetes' GetOperationOptions). */
const OPTIONS_KIND: Record<Exclude<Operation, 'CONNECT'>, string> = {
  CREATE: 'CreateOptions',
  UPDATE: 'UpdateOptions',
  DELETE: 'DeleteOptions',
};

export class GenericStore implements ObjectStore, ReadSource {
  readonly def: ResourceDef;
  readonly storage: Storage;
  readonly keys: KeyScheme;
  readonly domain: ApiDomain;
  private readonly admission: WriteAdmission;
  private readonly hooks: StoreHooks;
  private readonly cacher: Cacher | undefined;
  private readonly bookmarkIntervalMs: number;
  private readonly actions: Record<string, StoreAction>;
  private readonly computed: ComputedObjects | undefined;
  private readonly lookup: StoreLookup | undefined;
  /** A POST to the collection performs this instead of a create. */
  readonly createAction: StoreAction | undefined;
  /** What every write of this kind passes to storage: a TTL for kinds that expire. */
  private readonly writeOptions: WriteOptions | undefined;
  /** Where writes go (write-target.ts): the storage, or for a dry run a stand-in that stores nothing. */
  private readonly storageTarget: WriteTarget;
  private readonly dryRunTarget: WriteTarget;
  /** Whether writes record their ledger entry (not for kinds that expire: their records would outlive them). */
  readonly ledger: boolean;
  /**
   * --history-retention in seconds: how long the ledger entry of a delete stays (the record of an
   * object gone for good leaves with the window), and each write's entry in the storage's index.
   */
  private readonly ledgerWindowSeconds: number;

  constructor(config: StoreConfig) {
    this.def = config.def;
    this.storage = config.storage;
    this.keys = newKeyScheme(config.storagePrefix, config.def, config.domain);
    this.domain = config.domain;
    this.admission = config.admission;
    this.hooks = config.hooks ?? {};
    this.cacher = config.cacher;
    this.bookmarkIntervalMs = config.bookmarkIntervalMs ?? DEFAULT_BOOKMARK_INTERVAL_MS;
    this.actions = config.actions ?? {};
    this.createAction = config.createAction;
    this.computed = config.computed;
    this.lookup = config.lookup;
    this.writeOptions = config.def.expiresAfterEventTtl && config.eventTtlSeconds ? { ttlSeconds: config.eventTtlSeconds } : undefined;
    this.storageTarget = storageTarget(config.storage);
    this.ledger = !!config.ledgerRetentionSeconds && !config.def.expiresAfterEventTtl;
    this.ledgerWindowSeconds = config.ledgerRetentionSeconds ?? 0;
    this.dryRunTarget = dryRunTarget(config.storage);
  }

  /** CONNECT admission of a proxied subresource (pods/exec, …): `options` is its options object (PodExecOptions). */
  async admitConnect(ctx: RequestContext, name: string, subresource: string, options: ApiObject): Promise<void> {
    // A connection writes nothing: there is nothing for plugins to undo.
    const attributes = this.attributes(ctx, newAdmissionRollback(), 'CONNECT', name, options, undefined, subresource);
    await this.admission.admit(attributes);
    await this.admission.validate(attributes);
  }

  /** Whether the subresource is an action this store performs. */
  hasAction(subresource: string): boolean {
    return Object.hasOwn(this.actions, subresource);
  }

  /** Performs an action (actions.ts): a subresource's, or with subresource '' the collection's createAction. */
  async act(ctx: RequestContext, subresource: string, name: string, body: ApiObject): Promise<ActionResult> {
    const action = subresource ? this.actions[subresource] : this.createAction;
    if (!action || !this.lookup) throw status.methodNotAllowed();
    // As Kubernetes' create handler: the action is a CREATE of its own kind (a Binding on pods/binding),
    // admitted before it runs; the writes it makes are not admitted again (BindingREST and EvictionREST
    // write the pod with ValidateAllObjectFunc).
    const txn = new WriteTransaction();
    const attributes = this.attributes(ctx, txn.admission, 'CREATE', name, body, undefined, subresource);
    try {
      await this.admission.admit(attributes);
      await this.admission.validate(attributes);
      const result = await action.run(this.lookup, { ...ctx, admitted: true }, name, body);
      await txn.commit();
      return result;
    } finally {
      await txn.end();
    }
  }

  /** The admission a write runs: none when its request was admitted already (the writes an action makes). */
  private admissionOf(ctx: RequestContext): WriteAdmission {
    return ctx.admitted ? ADMITTED : this.admission;
  }

  /** The kind's before-write hook (store-hooks.ts) on a validated object; old is null for a create. */
  private beforeWrite(ctx: RequestContext, obj: ApiObject, old: ApiObject | null): Promise<HookTransaction> {
    const hookCtx = { dryRun: ctx.dryRun };
    const txn = old ? this.hooks.beforeUpdate?.(obj, old, hookCtx) : this.hooks.beforeCreate?.(obj, hookCtx);
    return txn ?? Promise.resolve(NO_TRANSACTION);
  }

  get groupResource(): status.GroupResource {
    return { group: this.def.group, resource: this.def.plural };
  }

  strategyContext(ctx: RequestContext): StrategyContext {
    return { domain: this.domain, now: ctx.now, user: ctx.user };
  }

  /**
   * The history subresource (history-view.ts): the object's revisions, or with a resourceVersion
   * the object as it was then. Reads the store's history, never the watch cache.
   */
  history(ctx: RequestContext, name: string, query: HistoryQuery): Promise<ApiObject | ObjectRevisionList> {
    if (!this.ledger) throw status.notFound(this.groupResource, name);
    const src = { storage: this.storage, decode: (kv: KeyValue) => this.served(this.decode(kv)) };
    const key = this.keys.objectKey(ctx.namespace, name);
    if (query.resourceVersion) return objectAtRevision(src, this.groupResource, key, name, query.resourceVersion);
    return historyList(src, this.domain, this.groupResource, key, name, query);
  }

  private storageError(err: unknown, name: string): unknown {
    return interpretStorageError(err, this.groupResource, name);
  }

  /** Decoded with its apiVersion/kind as served (converted from the storage form, see conversion.ts). */
  decode(kv: KeyValue, revision?: number): ApiObject {
    return servedObject(this.def, decodeObject(kv, revision));
  }

  /** The stored bytes of an object (converted to the storage form, see conversion.ts). */
  private encode(obj: ApiObject): Buffer {
    return encodeObject(storedObject(this.def, this.domain, obj));
  }

  /** A decoded object as served: the same object unless the kind has a batch conversion (conversion.ts). */
  private async served(obj: ApiObject): Promise<ApiObject> {
    return this.def.batchConversion ? (await servedObjects(this.def, [obj]))[0] : obj;
  }

  /** The stored bytes of a served object, through the kind's batch conversion when it has one. */
  private async encodeServed(obj: ApiObject): Promise<Buffer> {
    return this.encode(this.def.batchConversion ? await storageVersionObject(this.def, this.domain, obj) : obj);
  }

  /** One object, by the resourceVersion rules of a get (get.ts). */
  get(ctx: RequestContext, name: string, opts: GetOptions = {}): Promise<ApiObject> {
    if (this.computed) return getComputed(this, this.computed, ctx, name);
    const got = getObject(this, ctx, name, opts, this.cacher);
    return this.def.batchConversion ? got.then((obj) => this.served(obj)) : got;
  }

  /** A list with selectors, paging and the resourceVersion rules of a list (list.ts). */
  list(ctx: RequestContext, opts: ListOptions = {}): Promise<ApiList> {
    if (this.computed) return this.computed.page ? this.computed.page(ctx, opts, this.def) : listComputed(this, this.computed, ctx, opts);
    const listed = listObjects(this, ctx, opts, this.cacher);
    if (!this.def.batchConversion) return listed;
    // One conversion for the whole list (or page), as Kubernetes converts a list.
    return listed.then(async (list) => ({ ...list, items: await servedObjects(this.def, list.items) }));
  }

  /** The objects stored, as the watch cache counts them once loaded; undefined without one. */
  cachedObjectCount(): number | undefined {
    return this.cacher?.objectCount(this);
  }

  /** A watch by the resourceVersion rules of a watch (watch.ts); events go to the sink until stopped. */
  watch(ctx: RequestContext, opts: ListOptions, sink: WatchSink): Promise<Watch> {
    const out = this.def.batchConversion ? convertingSink(this.def, sink) : sink;
    return watchObjects(this, ctx, opts, out, {
      bookmarkIntervalMs: this.bookmarkIntervalMs,
      cacher: this.cacher,
      initialEventsEndAnnotation: `${this.domain.domain}/initial-events-end`,
    });
  }

  private attributes(
    ctx: RequestContext,
    rollback: AdmissionRollback,
    operation: Operation,
    name: string,
    object?: ApiObject,
    oldObject?: ApiObject,
    subresource = '',
  ): AdmissionAttributes {
    return {
      warnings: ctx.warnings ?? [],
      auditAnnotations: ctx.auditAnnotations,
      rollback,
      operation,
      resource: this.def,
      subresource,
      namespace: ctx.namespace,
      name,
      requestName: ctx.requestName,
      object,
      oldObject,
      user: ctx.user,
      dryRun: ctx.dryRun,
      options: operation === 'CONNECT' ? undefined : { kind: OPTIONS_KIND[operation], ...ctx.operationOptions },
    };
  }

  /** Defaults, mutating admission, strategy, validation, validating admission: a new object ready to store. */
  private async prepareCreate(
    ctx: RequestContext,
    input: ApiObject,
    rollback: AdmissionRollback,
    trackFields?: TrackFields,
    restored?: RestoredIdentity,
  ): Promise<ApiObject> {
    let obj = deepCopy(input);
    const sctx = this.strategyContext(ctx);
    obj.apiVersion = this.def.apiVersion;
    obj.kind = this.def.kind;
    ensureNamespace(this.def, obj, ctx);
    this.def.strategy?.applyDefaults?.(obj, sctx);
    if (trackFields) obj = trackFields(obj, null);
    await this.admissionOf(ctx).admit(this.attributes(ctx, rollback, 'CREATE', obj.metadata.name ?? '', obj));
    fillCreateMeta(this.def, obj, ctx);
    if (restored) keepIdentity(obj, restored);
    if (this.def.subresources?.status && !this.def.statusOnCreate) resetStatusForMainResource(obj, null);
    this.def.strategy?.prepareForCreate?.(obj, sctx);
    if (!obj.metadata.name && obj.metadata.generateName) obj.metadata.name = generateName(obj.metadata.generateName);
    validateForCreate(this.def, obj, sctx);
    addWarnings(ctx, this.def.strategy?.warningsOnCreate?.(obj, sctx));
    this.def.strategy?.canonicalize?.(obj);
    await this.admissionOf(ctx).validate(this.attributes(ctx, rollback, 'CREATE', obj.metadata.name ?? '', obj));
    return obj;
  }

  /**
   * Create. `restored` (the history group's Restore, never a request's create) keeps the identity of
   * the object as it was deleted: its uid and creationTimestamp.
   */
  async create(ctx: RequestContext, input: ApiObject, opts: CreateOptions = {}): Promise<ApiObject> {
    const generated = !input.metadata.name && !!input.metadata.generateName;
    const target = this.writeTarget(ctx);
    for (let attempt = 1; ; attempt++) {
      const txn = new WriteTransaction();
      let name = input.metadata.name ?? '';
      try {
        const prepared = await this.prepareCreateWrite(ctx, input, txn, opts);
        name = prepared.object.metadata.name!;
        const kv = await target.create(prepared.write.key, prepared.write.value, prepared.write.options);
        if (!kv) return prepared.object;
        await txn.commit();
        return await this.createdObject(prepared, kv);
      } catch (err) {
        if (generated && isStorageError(err, 'KeyExists') && attempt < GENERATE_NAME_ATTEMPTS) continue;
        throw this.storageError(err, name);
      } finally {
        await txn.end();
      }
    }
  }

  /**
   * A create made ready to store, as `create` makes it: defaulted, admitted, validated, the kind's
   * hooks run (their undo and admission's in `txn`, the caller's to commit or end), encoded. What
   * create-batch.ts stores several of in one storage batch. Never a dry run.
   */
  async prepareCreateWrite(
    ctx: RequestContext,
    input: ApiObject,
    txn: WriteTransaction,
    opts: CreateOptions = {},
  ): Promise<PreparedCreate> {
    const obj = await this.prepareCreate(ctx, input, txn.admission, opts.trackFields, opts.restored);
    const name = obj.metadata.name!;
    txn.hooks = await this.beforeWrite(ctx, obj, null);
    // Encoded after the hooks, which complete the object (a Service's cluster IPs and families).
    const write = {
      key: this.keys.objectKey(ctx.namespace, name),
      value: await this.encodeServed(obj),
      options: this.writeOptionsFor(ctx, 'create', name),
    };
    return { object: obj, write };
  }

  /** What a prepared create answers once stored at kv. */
  createdObject(prepared: PreparedCreate, kv: KeyValue): Promise<ApiObject> | ApiObject {
    return this.writtenObject(prepared.object, kv);
  }

  /** A storage error of a write of `name` as the API error it stands for (storage-errors.ts). */
  apiError(err: unknown, name: string): unknown {
    return this.storageError(err, name);
  }

  /** What a write passes to storage: the kind's TTL, and the ledger's record beside the object (ledger-record.ts). */
  private writeOptionsFor(ctx: RequestContext, operation: LedgerOperation, name: string): WriteOptions | undefined {
    if (!this.ledger || ctx.dryRun) return this.writeOptions;
    const key = ledgerKey(this.keys.objectKey(ctx.namespace, name));
    const value = encodeLedgerRecord(ledgerRecord(ctx, operation));
    // A delete's record expires with the window (unless the name is written again): without it the
    // ledger would keep one key for every object ever deleted.
    const ttl = operation === 'delete' ? { ttlSeconds: this.ledgerWindowSeconds } : {};
    // Listed in the storage's index of the record's writes for the window: a history page in two reads.
    return { ...this.writeOptions, alongside: { key, value, ...ttl, indexSeconds: this.ledgerWindowSeconds } };
  }

  /** Where this request's writes go: the storage, or for a dry run its stand-in that stores nothing (write-target.ts). */
  private writeTarget(ctx: RequestContext): WriteTarget {
    return ctx.dryRun ? this.dryRunTarget : this.storageTarget;
  }

  /**
   * What a write answers: the object it wrote at the write's resourceVersion. Decoding the stored
   * bytes gives the same unless the kind converts on the way out (a storage version, read defaults,
   * a conversion webhook); only then is it decoded.
   */
  private writtenObject(obj: ApiObject, kv: KeyValue): Promise<ApiObject> | ApiObject {
    if (this.def.conversion || this.def.batchConversion || this.def.defaultOnRead) return this.served(this.decode(kv));
    obj.metadata.resourceVersion = String(kv.modRevision);
    return obj;
  }

  /**
   * Update (PUT, PATCH, subresources): one optimistic-concurrency loop around compute → prepare → write.
   * A missing object is created when the kind allows it (or `allowCreate` says so, as apply does).
   */
  async update(ctx: RequestContext, name: string, compute: UpdateFn, opts: UpdateOptions = {}): Promise<UpdateResult> {
    const key = this.keys.objectKey(ctx.namespace, name);
    const subresource = opts.subresource ?? '';
    let created = false;
    let result: ApiObject | undefined;
    // The stored object when the update deleted it.
    let gone: ApiObject | undefined;
    // The watch cache's object, the first attempt's state (the write's revision compare checks it).
    let guess: CachedState | undefined;
    const txn = new WriteTransaction();

    const attempt = async (current: KeyValue | null): Promise<Buffer | null> => {
      created = false;
      await txn.restart();
      if (!current) {
        if (subresource || !(this.def.allowCreateOnUpdate || opts.allowCreate)) throw status.notFound(this.groupResource, name);
        const input = await compute(null);
        ensureNameMatches(input, name);
        if (input.metadata.resourceVersion) throw status.notFound(this.groupResource, name);
        result = await this.prepareCreate(ctx, input, txn.admission, opts.trackFields);
        txn.hooks = await this.beforeWrite(ctx, result, null);
        created = true;
        // Encoded after the hooks, which complete the object.
        return await this.encodeServed(result);
      }
      let old = current === guess?.kv ? deepCopy(guess.object) : this.decode(current);
      if (this.def.batchConversion) old = await this.served(old);
      const input = deepCopy(await compute(deepCopy(old)));
      ensureNameMatches(input, name);
      const rv = input.metadata.resourceVersion;
      if (rv && rv !== old.metadata.resourceVersion) throw status.conflict(this.groupResource, name, status.OBJECT_MODIFIED);
      const obj = await this.prepareUpdate(ctx, input, old, subresource, txn.admission, opts.trackFields);
      result = obj;
      if (obj.metadata.deletionTimestamp && !this.pendingFinalization(obj)) {
        gone = old;
        return null;
      }
      // Nothing changed: hand back the stored bytes, so nothing is written and the revision stays
      // (unless they are in an older storage version, which a write moves forward).
      if (jsonEqual(obj, old) && !storedInOtherVersion(this.def, this.domain, current.value)) return current.value;
      txn.hooks = await this.beforeWrite(ctx, obj, old);
      return await this.encodeServed(obj);
    };

    try {
      guess = await this.cachedState(key);
      const written = await this.writeTarget(ctx).update(key, attempt, guess?.kv, this.writeOptionsFor(ctx, 'update', name));
      if (!written) return { object: result!, created };
      await txn.commit();
      if (written.deleted) {
        await this.hooks.afterDelete?.(gone!, { dryRun: false });
        return { object: result!, created: false };
      }
      return { object: await this.writtenObject(result!, written.kv), created };
    } catch (err) {
      throw this.storageError(err, name);
    } finally {
      await txn.end();
    }
  }

  /**
   * The object as the watch cache holds it, of any age, as a state for guaranteedUpdate to start
   * from instead of reading the store (Kubernetes' cached existing object); undefined without one.
   */
  private async cachedState(key: string): Promise<CachedState | undefined> {
    const cache = this.cacher && (await this.cacher.readable(this, 'any', { wait: false }));
    const object = cache?.get(key);
    if (!object) return undefined;
    // The stored bytes are the object without its resourceVersion (codec.ts), which is the modRevision;
    // a kind with a batch conversion caches its objects as stored already.
    const value = this.def.batchConversion ? encodeObject(object) : this.encode(object);
    const kv = { key, value, createRevision: 0, modRevision: Number(object.metadata.resourceVersion) };
    return { kv, object };
  }

  private async prepareUpdate(
    ctx: RequestContext,
    input: ApiObject,
    old: ApiObject,
    subresource: string,
    rollback: AdmissionRollback,
    trackFields?: TrackFields,
  ): Promise<ApiObject> {
    const sctx = this.strategyContext(ctx);
    input.apiVersion = this.def.apiVersion;
    input.kind = this.def.kind;
    ensureNamespace(this.def, input, ctx);
    let obj = input;
    const sub = subresource ? this.def.subresources?.[subresource] : undefined;
    if (subresource && !sub) throw status.notFound(this.groupResource, `${old.metadata.name}/${subresource}`);
    if (!sub) this.def.strategy?.applyDefaults?.(obj, sctx);
    if (!sub && trackFields) obj = trackFields(obj, old);
    await this.admissionOf(ctx).admit(this.attributes(ctx, rollback, 'UPDATE', old.metadata.name!, obj, old, subresource));
    if (this.def.requireResourceVersionOnUpdate && !sub?.view && !obj.metadata.resourceVersion) throw this.unconditionalUpdate(old);
    if (sub) {
      obj = sub.prepareForUpdate(obj, old, sctx);
      if (trackFields) obj = trackFields(obj, old);
    }
    // A view subresource (scale) writes the main object, so the main resource's rules apply too.
    if (!sub || sub.view) {
      if (this.def.subresources?.status) resetStatusForMainResource(obj, old);
      this.def.strategy?.prepareForUpdate?.(obj, old, sctx);
    }
    carryOverUpdateMeta(this.def, obj, old);
    validateForUpdate(this.def, obj, old, sctx, subresource);
    if (!sub) addWarnings(ctx, this.def.strategy?.warningsOnUpdate?.(obj, old, sctx));
    this.def.strategy?.canonicalize?.(obj);
    await this.admissionOf(ctx).validate(this.attributes(ctx, rollback, 'UPDATE', old.metadata.name!, obj, old, subresource));
    return obj;
  }

  /** The 422 of an update without a resourceVersion where the kind requires one (its Go value: uint64 zero). */
  private unconditionalUpdate(old: ApiObject): status.ApiError {
    const field = invalid('metadata.resourceVersion', goTyped('uint64', 0), 'must be specified for an update');
    return status.invalid({ group: this.def.group, kind: this.def.plural }, old.metadata.name ?? '', [field]);
  }

  private pendingFinalization(obj: ApiObject): boolean {
    return hasFinalizers(obj) || (this.def.strategy?.pendingFinalization?.(obj) ?? false);
  }

  /**
   * Delete: preconditions, admission (mutating and validating), the garbage-collection finalizers the options ask for
   * (deletion-propagation.ts), then either remove the object or, when finalizers (or the kind) keep it,
   * set deletionTimestamp and leave it for whoever finalizes it.
   */
  async delete(ctx: RequestContext, name: string, options: DeleteOptions = {}): Promise<DeleteResult> {
    const key = this.keys.objectKey(ctx.namespace, name);
    let outcome: DeleteResult | undefined;
    const txn = new WriteTransaction();
    const attempt = async (current: KeyValue | null): Promise<Buffer | null> => {
      await txn.restart();
      if (!current) throw status.notFound(this.groupResource, name);
      const old = await this.served(this.decode(current));
      checkDeletePreconditions({ group: this.def.group, kind: this.def.kind }, old, options);
      // As Kubernetes' AdmissionToValidateObjectDeleteFunc: mutating then validating admission, both seeing the stored object.
      const attributes = this.attributes(ctx, txn.admission, 'DELETE', name, undefined, deepCopy(old));
      await this.admissionOf(ctx).admit(attributes);
      await this.admissionOf(ctx).validate(attributes);
      const obj = deepCopy(old);
      const decision = this.def.strategy?.beforeDelete?.(obj, this.strategyContext(ctx)) ?? 'delete';
      const finalizers = deletionFinalizers(this.def, old, options);
      if (finalizers?.length) obj.metadata.finalizers = finalizers;
      else if (finalizers) delete obj.metadata.finalizers;
      if (decision === 'delete' && !hasFinalizers(obj)) {
        outcome = { object: this.def.strategy?.gracefulDelete ? markedDeleted(old, ctx.now) : old, deleted: true };
        return null;
      }
      if (!obj.metadata.deletionTimestamp) {
        obj.metadata.deletionTimestamp = timestamp(ctx.now);
        obj.metadata.deletionGracePeriodSeconds = 0;
        if (this.def.trackGeneration) obj.metadata.generation = (obj.metadata.generation ?? 0) + 1;
      }
      outcome = { object: obj, deleted: false };
      return this.encodeServed(obj);
    };
    try {
      const written = await this.writeTarget(ctx).update(key, attempt, undefined, this.writeOptionsFor(ctx, 'delete', name));
      if (!written) return outcome!;
      await txn.commit();
      if (written.deleted) await this.hooks.afterDelete?.(outcome!.object, { dryRun: false });
      return written.deleted ? outcome! : { object: await this.served(this.decode(written.kv)), deleted: false };
    } catch (err) {
      throw this.storageError(err, name);
    } finally {
      await txn.end();
    }
  }
}

export interface CreateOptions {
  trackFields?: TrackFields;
  /** Set by a restore only: the identity of the deleted object to keep. */
  restored?: RestoredIdentity;
}

/** A create ready to store (GenericStore.prepareCreateWrite): the object and its storage write. */
export interface PreparedCreate {
  object: ApiObject;
  write: BatchCreate;
}

/** What a restored object keeps of the object that was deleted (GenericStore.create's `restored`). */
export interface RestoredIdentity {
  uid: string;
  creationTimestamp?: string;
}

/** Puts back the deleted object's identity over what a create fills in, so owners and dependents reconnect. */
function keepIdentity(obj: ApiObject, restored: RestoredIdentity): void {
  obj.metadata.uid = restored.uid;
  if (restored.creationTimestamp) obj.metadata.creationTimestamp = restored.creationTimestamp;
}

/** A strategy's warnings for the client, each once (an update may run its steps again on a conflict). */
function addWarnings(ctx: RequestContext, warnings: string[] | undefined): void {
  if (!ctx.warnings) return;
  for (const w of warnings ?? []) if (!ctx.warnings.includes(w)) ctx.warnings.push(w);
}

/** A copy of an object deleted at once, as a graceful kind answers it: deletionTimestamp now, grace period 0. */
function markedDeleted(obj: ApiObject, now: Date): ApiObject {
  const copy = deepCopy(obj);
  copy.metadata.deletionTimestamp ??= timestamp(now);
  copy.metadata.deletionGracePeriodSeconds ??= 0;
  return copy;
}
