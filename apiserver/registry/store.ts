/**
 * The generic store: one per served resource. Object ↔ storage key, metadata, finalizers and graceful
 * deletion, dry run, admission and the kind's strategy — in named steps. Reads (list/watch) live in
 * list.ts and watch.ts.
 */
import type { Storage, KeyValue } from '../storage/interfaces.js';
import { guaranteedUpdate } from '../storage/guaranteed-update.js';
import { isStorageError } from '../storage/errors.js';
import type { ApiObject } from '../api/object.js';
import { deepCopy, jsonEqual } from '../api/object.js';
import type { ResourceDef } from '../api/resource.js';
import type { ApiDomain } from '../api/domain.js';
import type { StrategyContext } from '../api/strategy.js';
import * as status from '../api/status.js';
import type { AdmissionChain } from '../admission/chain.js';
import type { AdmissionAttributes, Operation } from '../admission/interfaces.js';
import type { KeyScheme } from './keys.js';
import { newKeyScheme } from './keys.js';
import { decodeObject, encodeObject } from './codec.js';
import { interpretStorageError } from './storage-errors.js';
import type { RequestContext } from './request-context.js';
import { timestamp } from './request-context.js';
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

const GENERATE_NAME_ATTEMPTS = 8;

export interface StoreConfig {
  def: ResourceDef;
  storage: Storage;
  storagePrefix: string;
  domain: ApiDomain;
  admission: AdmissionChain;
}

/** Computes the object to write from the stored one (null when absent): a PUT body, a patch result. */
export type UpdateFn = (old: ApiObject | null) => Promise<ApiObject> | ApiObject;

export interface UpdateResult {
  object: ApiObject;
  created: boolean;
}

export interface DeleteResult {
  object: ApiObject;
  /** False when the object stays (finalizers, graceful deletion). */
  deleted: boolean;
}

export class GenericStore {
  readonly def: ResourceDef;
  readonly storage: Storage;
  readonly keys: KeyScheme;
  readonly domain: ApiDomain;
  private readonly admission: AdmissionChain;

  constructor(config: StoreConfig) {
    this.def = config.def;
    this.storage = config.storage;
    this.keys = newKeyScheme(config.storagePrefix, config.def);
    this.domain = config.domain;
    this.admission = config.admission;
  }

  get groupResource(): status.GroupResource {
    return { group: this.def.group, resource: this.def.plural };
  }

  strategyContext(ctx: RequestContext): StrategyContext {
    return { domain: this.domain, now: ctx.now };
  }

  private storageError(err: unknown, name: string): unknown {
    return interpretStorageError(err, this.groupResource, name);
  }

  /** Decoded with its apiVersion/kind as served. */
  decode(kv: KeyValue, revision?: number): ApiObject {
    const { apiVersion: _a, kind: _k, ...rest } = decodeObject(kv, revision);
    return { kind: this.def.kind, apiVersion: this.def.apiVersion, ...rest } as ApiObject;
  }

  async get(ctx: RequestContext, name: string): Promise<ApiObject> {
    let kv: KeyValue | null;
    try {
      kv = await this.storage.get(this.keys.objectKey(ctx.namespace, name));
    } catch (err) {
      throw this.storageError(err, name);
    }
    if (!kv) throw status.notFound(this.groupResource, name);
    return this.decode(kv);
  }

  private attributes(ctx: RequestContext, operation: Operation, name: string, object?: ApiObject, oldObject?: ApiObject, subresource = ''): AdmissionAttributes {
    return { operation, resource: this.def, subresource, namespace: ctx.namespace, name, object, oldObject, user: ctx.user, dryRun: ctx.dryRun };
  }

  /** Defaults, mutating admission, strategy, validation, validating admission: a new object ready to store. */
  private async prepareCreate(ctx: RequestContext, input: ApiObject): Promise<ApiObject> {
    const obj = deepCopy(input);
    const sctx = this.strategyContext(ctx);
    obj.apiVersion = this.def.apiVersion;
    obj.kind = this.def.kind;
    ensureNamespace(this.def, obj, ctx);
    this.def.strategy?.applyDefaults?.(obj, sctx);
    await this.admission.admit(this.attributes(ctx, 'CREATE', obj.metadata.name ?? '', obj));
    fillCreateMeta(this.def, obj, ctx);
    if (this.def.subresources?.status) resetStatusForMainResource(obj, null);
    this.def.strategy?.prepareForCreate?.(obj, sctx);
    if (!obj.metadata.name && obj.metadata.generateName) obj.metadata.name = generateName(obj.metadata.generateName);
    validateForCreate(this.def, obj, sctx);
    this.def.strategy?.canonicalize?.(obj);
    await this.admission.validate(this.attributes(ctx, 'CREATE', obj.metadata.name ?? '', obj));
    return obj;
  }

  async create(ctx: RequestContext, input: ApiObject): Promise<ApiObject> {
    const generated = !input.metadata.name && !!input.metadata.generateName;
    for (let attempt = 1; ; attempt++) {
      const obj = await this.prepareCreate(ctx, input);
      const name = obj.metadata.name!;
      if (ctx.dryRun) {
        if (await this.storage.get(this.keys.objectKey(ctx.namespace, name))) throw status.alreadyExists(this.groupResource, name);
        return obj;
      }
      try {
        return this.decode(await this.storage.create(this.keys.objectKey(ctx.namespace, name), encodeObject(obj)));
      } catch (err) {
        if (generated && isStorageError(err, 'KeyExists') && attempt < GENERATE_NAME_ATTEMPTS) continue;
        throw this.storageError(err, name);
      }
    }
  }

  /**
   * Update (PUT, PATCH, subresources): one optimistic-concurrency loop around compute → prepare → write.
   * A missing object is created when the kind allows it (or `allowCreate` says so, as apply does).
   */
  async update(ctx: RequestContext, name: string, compute: UpdateFn, opts: { subresource?: string; allowCreate?: boolean } = {}): Promise<UpdateResult> {
    const key = this.keys.objectKey(ctx.namespace, name);
    const subresource = opts.subresource ?? '';
    let created = false;
    let result: ApiObject | undefined;

    const attempt = async (current: KeyValue | null): Promise<Buffer | null> => {
      created = false;
      if (!current) {
        if (subresource || !(this.def.allowCreateOnUpdate || opts.allowCreate)) throw status.notFound(this.groupResource, name);
        const input = await compute(null);
        ensureNameMatches(input, name);
        if (input.metadata.resourceVersion) throw status.notFound(this.groupResource, name);
        result = await this.prepareCreate(ctx, input);
        created = true;
        return encodeObject(result);
      }
      const old = this.decode(current);
      const input = deepCopy(await compute(deepCopy(old)));
      ensureNameMatches(input, name);
      const rv = input.metadata.resourceVersion;
      if (rv && rv !== old.metadata.resourceVersion) throw status.conflict(this.groupResource, name, status.OBJECT_MODIFIED);
      const obj = await this.prepareUpdate(ctx, input, old, subresource);
      result = obj;
      if (obj.metadata.deletionTimestamp && !this.pendingFinalization(obj)) return null;
      // Nothing changed: hand back the stored bytes, so nothing is written and the revision stays.
      if (jsonEqual(obj, old)) return current.value;
      return encodeObject(obj);
    };

    try {
      if (ctx.dryRun) {
        await attempt(await this.storage.get(key));
        return { object: result!, created };
      }
      const { kv, deleted } = await guaranteedUpdate(this.storage, key, attempt);
      if (deleted) return { object: result!, created: false };
      return { object: this.decode(kv), created };
    } catch (err) {
      throw this.storageError(err, name);
    }
  }

  private async prepareUpdate(ctx: RequestContext, input: ApiObject, old: ApiObject, subresource: string): Promise<ApiObject> {
    const sctx = this.strategyContext(ctx);
    input.apiVersion = this.def.apiVersion;
    input.kind = this.def.kind;
    ensureNamespace(this.def, input, ctx);
    let obj = input;
    const sub = subresource ? this.def.subresources?.[subresource] : undefined;
    if (subresource && !sub) throw status.notFound(this.groupResource, `${old.metadata.name}/${subresource}`);
    if (!sub) this.def.strategy?.applyDefaults?.(obj, sctx);
    await this.admission.admit(this.attributes(ctx, 'UPDATE', old.metadata.name!, obj, old, subresource));
    if (sub) obj = sub.prepareForUpdate(obj, old, sctx);
    else {
      if (this.def.subresources?.status) resetStatusForMainResource(obj, old);
      this.def.strategy?.prepareForUpdate?.(obj, old, sctx);
    }
    carryOverUpdateMeta(this.def, obj, old);
    validateForUpdate(this.def, obj, old, sctx, subresource);
    this.def.strategy?.canonicalize?.(obj);
    await this.admission.validate(this.attributes(ctx, 'UPDATE', old.metadata.name!, obj, old, subresource));
    return obj;
  }

  private pendingFinalization(obj: ApiObject): boolean {
    return hasFinalizers(obj) || (this.def.strategy?.pendingFinalization?.(obj) ?? false);
  }

  /**
   * Delete: preconditions, admission, then either remove the object or, when finalizers (or the kind)
   * keep it, set deletionTimestamp and leave it for whoever finalizes it.
   */
  async delete(ctx: RequestContext, name: string, options: DeleteOptions = {}): Promise<DeleteResult> {
    const key = this.keys.objectKey(ctx.namespace, name);
    let outcome: DeleteResult | undefined;
    const attempt = async (current: KeyValue | null): Promise<Buffer | null> => {
      if (!current) throw status.notFound(this.groupResource, name);
      const old = this.decode(current);
      checkDeletePreconditions(this.groupResource, old, options);
      await this.admission.validate(this.attributes(ctx, 'DELETE', name, undefined, old));
      const obj = deepCopy(old);
      const decision = this.def.strategy?.beforeDelete?.(obj, this.strategyContext(ctx)) ?? 'delete';
      if (decision === 'delete' && !hasFinalizers(obj)) {
        outcome = { object: old, deleted: true };
        return null;
      }
      if (!obj.metadata.deletionTimestamp) {
        obj.metadata.deletionTimestamp = timestamp(ctx.now);
        obj.metadata.deletionGracePeriodSeconds = 0;
        if (this.def.trackGeneration) obj.metadata.generation = (obj.metadata.generation ?? 0) + 1;
      }
      outcome = { object: obj, deleted: false };
      return encodeObject(obj);
    };
    try {
      if (ctx.dryRun) {
        await attempt(await this.storage.get(key));
        return outcome!;
      }
      const { kv, deleted } = await guaranteedUpdate(this.storage, key, attempt);
      return deleted ? outcome! : { object: this.decode(kv), deleted: false };
    } catch (err) {
      throw this.storageError(err, name);
    }
  }
}
