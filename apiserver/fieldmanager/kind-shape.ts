/**
 * What field management needs to know of a kind beyond its schema: the empty object a create starts
 * from, and the fields its strategy resets for a (sub)resource, which no write owns.
 */
import type { ApiObject } from '../api/object.js';
import type { ResourceDef } from '../api/resource.js';
import type { Definitions } from '../api/schema.js';
import { resolveSchema } from '../api/schema.js';
import { FieldSet } from './field-set.js';
import { fieldElement } from './path-element.js';

/**
 * The object a create starts from, as Kubernetes' empty typed object: metadata, and spec and status
 * as empty structs where the kind has them.
 */
export function newEmptyObject(def: ResourceDef, definitions: Definitions): ApiObject {
  const obj: ApiObject = { apiVersion: def.apiVersion, kind: def.kind, metadata: {} };
  const props = resolveSchema(def.schemaRef, definitions).properties ?? {};
  for (const name of ['spec', 'status']) {
    const s = props[name] && resolveSchema(props[name], definitions);
    if (s?.properties) obj[name] = {};
  }
  return obj;
}

/**
 * The fields a (sub)resource's strategy resets, which no write owns: status on the main resource of
 * a kind with a status subresource; everything but status through /status.
 */
export function resetFields(def: ResourceDef, definitions: Definitions, subresource: string): FieldSet | undefined {
  if (subresource === 'status') {
    const props = Object.keys(resolveSchema(def.schemaRef, definitions).properties ?? {});
    return FieldSet.of(...props.filter((p) => p !== 'status').map((p) => [fieldElement(p)]));
  }
  if (!subresource && def.subresources?.status) return FieldSet.of([fieldElement('status')]);
  return undefined;
}
