/**
 * kubectl's client-side apply annotation, which server-side apply by the `kubectl` manager upgrades
 * from: the last applied configuration, and the fields of it that still hold in the live object.
 */
import type { ApiObject } from '../api/object.js';
import { isJsonMap } from './granular.js';
import type { FieldSet } from './field-set.js';
import { compare } from './compare.js';
import { toFieldSet } from './to-field-set.js';
import type { Schema } from '../api/schema.js';
import type { TypeResolver } from './typed-schema.js';
import { canonicalJson } from './path-element.js';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** The manager name whose applies upgrade client-side apply. */
export const KUBECTL_MANAGER = 'kubectl';

export function lastAppliedOf(obj: ApiObject): string | undefined {
  return obj.metadata.annotations?.[LAST_APPLIED_ANNOTATION] || undefined;
}

/**
 * The fields kubectl applied client-side that still have the applied value in the live object;
 * undefined when there is no (usable) annotation.
 */
export function fieldsStillLastApplied(live: ApiObject, apiVersion: string, schema: Schema, types: TypeResolver): FieldSet | undefined {
  const raw = lastAppliedOf(live);
  if (!raw) return undefined;
  try {
    const last = JSON.parse(raw) as unknown;
    if (!isJsonMap(last) || last.apiVersion !== apiVersion) return undefined;
    const c = compare(last, live, schema, types);
    return toFieldSet(last, schema, types, false).difference(c.modified).difference(c.added).difference(c.removed);
  } catch {
    return undefined;
  }
}

/** The annotation's value for an applied configuration: the configuration without the annotation, keys sorted. */
export function lastAppliedValue(config: ApiObject): string {
  const annotations = { ...config.metadata.annotations };
  delete annotations[LAST_APPLIED_ANNOTATION];
  const metadata = { ...config.metadata, annotations };
  if (Object.keys(annotations).length === 0) delete (metadata as { annotations?: unknown }).annotations;
  return canonicalJson({ ...config, metadata });
}
