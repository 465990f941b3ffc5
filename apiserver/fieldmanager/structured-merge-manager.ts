/**
 * The innermost step: ownership over the kind's schema (updater.ts). Apply checks the configuration
 * (no managedFields of its own, the schema's types and fields, lists it can key), merges it into the
 * live object and defaults the result, as Kubernetes defaults an applied object before storing it.
 */
import type { ApiObject } from '../api/object.js';
import type { Schema } from '../api/schema.js';
import * as status from '../api/status.js';
import type { FieldSet } from './field-set.js';
import { isJsonMap } from './granular.js';
import { TypedValueError } from './list-items.js';
import type { Manager } from './manager.js';
import { toFieldSet } from './to-field-set.js';
import type { TypeResolver } from './typed-schema.js';
import { Updater } from './updater.js';

export interface StructuredMergeOptions {
  types: TypeResolver;
  schema: Schema;
  apiVersion: string;
  /** Fields the kind's strategy resets for this (sub)resource: owned by nobody. */
  ignored?: FieldSet;
  /** Fills defaulted fields of an applied object, in place. */
  applyDefaults(obj: ApiObject): void;
  /** The object as error messages name it: `namespace/name; /v1, Kind=ConfigMap`. */
  describe(obj: ApiObject): string;
  /** Problems of an applied configuration against the schema (wrong types, undeclared fields), as `.path: problem`. */
  checkTypes(obj: ApiObject): string[];
}

/** A copy without null members of maps (Kubernetes' typed objects cannot hold them). */
function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (!isJsonMap(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = dropNulls(x);
  return out;
}

export function newStructuredMergeManager(o: StructuredMergeOptions): Manager {
  const updater = new Updater(o.types, o.schema, o.ignored);
  return {
    update(live, next, managed, manager) {
      try {
        return {
          object: next,
          managed: { fields: updater.update(live, next, o.apiVersion, managed.fields, manager), times: managed.times },
        };
      } catch (err) {
        if (err instanceof TypedValueError) throw new Error(`failed to update ManagedFields (${o.describe(next)}): ${err.message}`);
        throw err;
      }
    },
    apply(live, config, managed, manager, force) {
      if (Array.isArray(config.metadata?.managedFields)) throw status.badRequest('metadata.managedFields must be nil');
      const problems = o.checkTypes(config);
      try {
        toFieldSet(config, o.schema, o.types, false);
      } catch (err) {
        if (!(err instanceof TypedValueError)) throw err;
        problems.push(err.message);
      }
      if (problems.length) {
        const detail = problems.length === 1 ? problems[0] : ['errors:', ...problems.map((p) => `  ${p}`)].join('\n');
        throw status.badRequest(`failed to create typed patch object (${o.describe(config)}): ${detail}`);
      }
      let result;
      try {
        result = updater.apply(live, config, o.apiVersion, managed.fields, manager, force);
      } catch (err) {
        if (err instanceof TypedValueError)
          throw status.internal(new Error(`failed to create typed live object (${o.describe(live)}): ${err.message}`));
        throw err;
      }
      const next = { fields: result.managers, times: managed.times };
      if (result.object === null) return { object: null, managed: next };
      const object = dropNulls(result.object) as ApiObject;
      // An object always has metadata, as Kubernetes' typed objects do: the prune takes all of it when
      // the applier last applied some (labels, say), applies none now and nobody else owns any. The
      // object is then nameless, which the patch handler answers with a 400.
      if (!isJsonMap(object.metadata)) object.metadata = {};
      o.applyDefaults(object);
      return { object, managed: next };
    },
  };
}
