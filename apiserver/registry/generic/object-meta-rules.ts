/**
 * The metadata steps every kind shares: system fields on create, what carries over on update,
 * generation, and the checks of the request's name/namespace against the object's.
 */
import { randomUUID, randomInt } from 'node:crypto';
import type { ApiObject } from '../../api/object.js';
import { jsonEqual } from '../../api/object.js';
import type { ResourceDef } from '../../api/resource.js';
import * as status from '../../api/status.js';
import type { RequestContext } from './request-context.js';
import { timestamp } from '../../api/object-meta.js';

const NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';
const GENERATED_SUFFIX = 5;
const MAX_GENERATED_NAME_PREFIX = 63 - GENERATED_SUFFIX;

/** Kubernetes' SimpleNameGenerator: prefix (cut to 58 characters) + 5 random characters. */
export function generateName(prefix: string): string {
  let s = prefix.length > MAX_GENERATED_NAME_PREFIX ? prefix.slice(0, MAX_GENERATED_NAME_PREFIX) : prefix;
  for (let i = 0; i < GENERATED_SUFFIX; i++) s += NAME_CHARS[randomInt(NAME_CHARS.length)];
  return s;
}

/** Puts the request's namespace on the object; a different one in the body is a 400. */
export function ensureNamespace(def: ResourceDef, obj: ApiObject, ctx: RequestContext): void {
  const want = def.namespaced ? ctx.namespace : '';
  const have = obj.metadata.namespace ?? '';
  if (have === want) return;
  if (have === '' || want === '') {
    if (want) obj.metadata.namespace = want;
    else delete obj.metadata.namespace;
    return;
  }
  throw status.badRequest('the namespace of the provided object does not match the namespace sent on the request');
}

/** System fields of a new object. */
export function fillCreateMeta(def: ResourceDef, obj: ApiObject, ctx: RequestContext): void {
  const m = obj.metadata;
  if (m.resourceVersion) throw status.badRequest('resourceVersion should not be set on objects to be created');
  m.uid = randomUUID();
  m.creationTimestamp = timestamp(ctx.now);
  delete m.deletionTimestamp;
  delete m.deletionGracePeriodSeconds;
  if ('selfLink' in m) delete m.selfLink; // never set since 1.20 (ObjectMeta here does not declare it); a client may still send one
  if (def.trackGeneration) m.generation = 1;
  else delete m.generation;
}

/** What an update may not change is carried over from the stored object. */
export function carryOverUpdateMeta(def: ResourceDef, obj: ApiObject, old: ApiObject): void {
  const m = obj.metadata;
  const o = old.metadata;
  if (!m.uid) m.uid = o.uid;
  if (!m.resourceVersion) m.resourceVersion = o.resourceVersion; // an unconditional update
  m.creationTimestamp = o.creationTimestamp;
  if (o.deletionTimestamp) m.deletionTimestamp = o.deletionTimestamp;
  else delete m.deletionTimestamp;
  if (o.deletionGracePeriodSeconds !== undefined) m.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds;
  else delete m.deletionGracePeriodSeconds;
  if ('selfLink' in m) delete m.selfLink; // never set since 1.20 (ObjectMeta here does not declare it); a client may still send one
  if (def.trackGeneration) {
    const gen = o.generation ?? 1;
    m.generation = generationMoves(def.trackGeneration, obj, old) ? gen + 1 : gen;
  } else delete m.generation;
}

/** Whether an update bumps the generation under the kind's rule. */
function generationMoves(rule: NonNullable<ResourceDef['trackGeneration']>, obj: ApiObject, old: ApiObject): boolean {
  if (rule === 'create-only') return false;
  if (rule === 'with-labels' && !jsonEqual(obj.metadata.labels ?? {}, old.metadata.labels ?? {})) return true;
  return specChanged(obj, old);
}

/** True when anything outside metadata and status differs. */
function specChanged(obj: ApiObject, old: ApiObject): boolean {
  const strip = ({ metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest }: ApiObject) => rest;
  return !jsonEqual(strip(obj), strip(old));
}

/** The body's name must be the URL's. */
export function ensureNameMatches(obj: ApiObject, name: string): void {
  if (obj.metadata.name === undefined || obj.metadata.name === '') {
    obj.metadata.name = name;
    return;
  }
  if (obj.metadata.name !== name) {
    throw status.badRequest(`the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`);
  }
}

/** Whether a deleted object (deletionTimestamp set) still waits for finalizers. */
export function hasFinalizers(obj: ApiObject): boolean {
  return (obj.metadata.finalizers?.length ?? 0) > 0;
}
