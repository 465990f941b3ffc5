/**
 * Field management of one request on one resource (Kubernetes' FieldManager): decodes the live
 * object's managedFields, runs the steps, and encodes the result into the object to store.
 *
 * Updates (create, update, non-apply patch) record what the writer changed. Their managedFields come
 * from the request object when it carries valid ones (so clients can edit them), `[{}]` resets them
 * (the writer then owns what it changed), and anything else — absent, `[]`, invalid, or a subresource
 * write — keeps the live object's. An update never fails for ownership reasons: if the bookkeeping
 * fails, the live managedFields are kept.
 */
import type { ApiObject } from '../api/object.js';
import { deepCopy } from '../api/object.js';
import type { ResourceDef } from '../api/resource.js';
import type { Definitions } from '../api/schema.js';
import { checkAgainstSchema } from '../api/schema-check.js';
import * as status from '../api/status.js';
import { withManagerInfo } from './build-manager-info.js';
import { withCapManagers } from './cap-managers.js';
import { applyConflictError } from './conflict-error.js';
import { isJsonMap } from './granular.js';
import { newEmptyObject, resetFields } from './kind-shape.js';
import { withLastAppliedManager } from './last-applied-manager.js';
import { withLastAppliedUpdater } from './last-applied-updater.js';
import type { Managed } from './managed-fields.js';
import { decodeManagedFields, emptyManaged, encodeManagedFields } from './managed-fields.js';
import { withManagedFieldsUpdater } from './managed-fields-updater.js';
import type { Manager } from './manager.js';
import { withSkipNonApplied } from './skip-non-applied.js';
import { withStripMeta } from './strip-meta.js';
import { newStructuredMergeManager } from './structured-merge-manager.js';
import { typeResolver } from './typed-schema.js';
import { ApplyConflicts } from './updater.js';
import { gvkString, withVersionCheck } from './version-check.js';
import { messageOf } from '../api/thrown.js';

export interface FieldManagerOptions {
  def: ResourceDef;
  definitions: Definitions;
  /** The subresource written ('' for the main resource). */
  subresource: string;
  /** The request's time: the time of the entries it changes. */
  now: Date;
  /** The kind's defaulting, run on an applied object. */
  applyDefaults(obj: ApiObject): void;
}

/** `[{}]`: the request asks for the managedFields to be cleared. */
function isReset(entries: unknown): boolean {
  return Array.isArray(entries) && entries.length === 1 && isJsonMap(entries[0]) && Object.keys(entries[0]).length === 0;
}

function decodeOrEmpty(entries: unknown): Managed {
  try {
    return decodeManagedFields(entries);
  } catch {
    return emptyManaged();
  }
}

/**
 * The object without managedFields: itself when it has none (a create's), else a copy whose
 * metadata leaves them out (the copy shares everything else). Built without `delete`, which would
 * turn the copy into a slow dictionary object for the walks that follow.
 */
function withoutManagedFields(obj: ApiObject): ApiObject {
  if (!Object.hasOwn(obj.metadata, 'managedFields')) return obj;
  const metadata: Record<string, unknown> = {};
  const source = obj.metadata as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    if (key === 'managedFields') continue;
    const value = source[key];
    if (key === '__proto__') Object.defineProperty(metadata, key, { value, enumerable: true, writable: true, configurable: true });
    else metadata[key] = value;
  }
  return { ...obj, metadata };
}

function setManagedFields(obj: ApiObject, managed: Managed): void {
  const entries = encodeManagedFields(managed);
  if (entries) obj.metadata.managedFields = entries;
  else delete obj.metadata.managedFields;
}

/** An applied object as error messages name it: `namespace/name; /v1, Kind=ConfigMap`. */
function describe(obj: ApiObject): string {
  return `${textOf(obj.metadata?.namespace)}/${textOf(obj.metadata?.name)}; ${gvkString(obj.apiVersion, obj.kind)}`;
}

/** A field of an applied object as text: it may be of any type (an object with a toString member made String throw). */
function textOf(value: unknown): string {
  return value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
}

/** Wrong types and undeclared fields of an applied object, as `.path: problem`. */
function typeProblems(obj: ApiObject, o: FieldManagerOptions): string[] {
  const { errors, unknownFields } = checkAgainstSchema(deepCopy(obj), o.def.schemaRef, o.definitions);
  const dotted = (p: string) => (p.startsWith('[') ? p : `.${p}`);
  return [...errors.map(dotted), ...unknownFields.map((f) => `${dotted(f)}: field not declared in schema`)];
}

/** The steps, innermost first, each wrapping the one before, as Kubernetes' NewDefaultFieldManager stacks them. */
function newManagerStack(o: FieldManagerOptions, emptyObject: () => ApiObject): Manager {
  const { def, definitions } = o;
  const types = typeResolver(definitions);
  let m = newStructuredMergeManager({
    types,
    schema: def.schemaRef,
    apiVersion: def.apiVersion,
    ignored: resetFields(def, definitions, o.subresource),
    applyDefaults: o.applyDefaults,
    describe,
    checkTypes: (obj) => typeProblems(obj, o),
  });
  m = withStripMeta(m);
  m = withManagedFieldsUpdater(m, o.now);
  m = withManagerInfo(m, def.apiVersion, o.subresource);
  m = withCapManagers(m);
  m = withSkipNonApplied(m, emptyObject);
  m = withLastAppliedManager(m, def.apiVersion, def.schemaRef, types);
  m = withLastAppliedUpdater(m);
  return withVersionCheck(m, def.apiVersion, def.kind);
}

export class FieldManager {
  private readonly stack: Manager;
  private readonly emptyObject: () => ApiObject;

  constructor(private readonly o: FieldManagerOptions) {
    this.emptyObject = () => newEmptyObject(o.def, o.definitions);
    this.stack = newManagerStack(o, this.emptyObject);
  }

  /** The managedFields an update starts from (see the file comment). */
  private startingManaged(live: ApiObject, next: ApiObject): Managed {
    if (this.o.subresource) return decodeOrEmpty(live.metadata.managedFields);
    if (isReset(next.metadata.managedFields)) return emptyManaged();
    try {
      const managed = decodeManagedFields(next.metadata.managedFields);
      if (managed.fields.size) return managed;
    } catch {
      // fall back to the live object's
    }
    return decodeOrEmpty(live.metadata.managedFields);
  }

  /** `next` (which becomes the stored object; live null on create) with its managedFields recorded; throws when the bookkeeping fails. */
  update(live: ApiObject | null, next: ApiObject, manager: string): ApiObject {
    const liveObj = live ?? this.emptyObject();
    const managed = this.startingManaged(liveObj, next);
    const r = this.stack.update(withoutManagedFields(liveObj), withoutManagedFields(next), managed, manager);
    setManagedFields(next, r.managed);
    return next;
  }

  /** update, keeping the live managedFields when the bookkeeping fails. */
  updateNoErrors(live: ApiObject | null, next: ApiObject, manager: string): ApiObject {
    try {
      return this.update(live, next, manager);
    } catch {
      if (live?.metadata.managedFields) next.metadata.managedFields = live.metadata.managedFields;
      else delete next.metadata.managedFields;
      return next;
    }
  }

  /** The object an apply of `config` by `manager` makes of `live` (null: the object is created). 409 on conflicts unless forced. */
  apply(live: ApiObject | null, config: ApiObject, manager: string, force: boolean): ApiObject {
    const liveObj = live ?? this.emptyObject();
    let managed: Managed;
    try {
      managed = decodeManagedFields(liveObj.metadata.managedFields);
    } catch (err) {
      throw status.internal(new Error(`failed to decode managed fields: ${messageOf(err)}`));
    }
    try {
      // The steps answer a fresh object: the merged one, or a copy of the live one when nothing changed.
      const { object, managed: next } = this.stack.apply(withoutManagedFields(liveObj), config, managed, manager, force);
      setManagedFields(object!, next);
      return object!;
    } catch (err) {
      if (err instanceof ApplyConflicts) throw applyConflictError(err.conflicts);
      throw err;
    }
  }
}
