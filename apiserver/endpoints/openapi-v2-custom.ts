/**
 * A custom resource's schema as the OpenAPI v2 document publishes it. Swagger 2.0 and kubectl's v2
 * schema model cannot say what a CRD's structural schema can, so Kubernetes publishes in v2 a reduced
 * form (the v3 documents keep the schema whole), and clients rely on it:
 * - a root that keeps unknown fields is published as `{type: object}` alone (with its group-version-kind):
 *   with properties listed, kubectl would refuse every field outside them;
 * - `allOf`, `anyOf`, `oneOf` and `not` are left out;
 * - a nullable node loses its type, items and properties (null would fail them), and is no longer
 *   required by its parent;
 * - a node that keeps unknown fields loses its items and properties, and an object one its type;
 * - an array left without items loses its type (kubectl cannot model an array of nothing);
 * - empty `properties` are left out.
 * Reads the source schema (`x-orch-` markers) and returns a new one; the input is not changed.
 */
import type { Json } from './openapi-common.js';

const PRESERVE = 'x-orch-preserve-unknown-fields';
const GVK = 'x-orch-group-version-kind';
const JUNCTORS = ['allOf', 'anyOf', 'oneOf', 'not'];

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function reduce(node: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (JUNCTORS.includes(k)) continue;
    if (k === 'properties' && isObject(v)) {
      out.properties = Object.fromEntries(Object.entries(v).map(([name, p]) => [name, isObject(p) ? reduce(p) : p]));
    } else if ((k === 'items' || k === 'additionalProperties') && isObject(v)) out[k] = reduce(v);
    else out[k] = v;
  }
  if (out.nullable === true) {
    delete out.type;
    delete out.items;
    delete out.properties;
    delete out.nullable;
  }
  if (out[PRESERVE] === true) {
    delete out.items;
    delete out.properties;
    if (out.type === 'object') delete out.type;
  }
  if (out.type === 'array' && out.items === undefined) delete out.type;
  // An object the schema gives no properties is `properties: {}` in the source (pruning reads it); Go omits it.
  if (isObject(out.properties) && Object.keys(out.properties).length === 0) delete out.properties;
  if (Array.isArray(out.required) && isObject(node.properties)) {
    const props = node.properties as Record<string, Json>;
    const required = out.required.filter((name) => !(isObject(props[name]) && props[name].nullable === true));
    if (required.length) out.required = required;
    else delete out.required;
  }
  return out;
}

/** The v2 form of a custom resource version's schema (its root: `apiVersion`, `kind`, `metadata` and the user's). */
export function customSchemaV2(schema: Json): Json {
  if (schema[PRESERVE] === true) return { type: 'object', ...(schema[GVK] ? { [GVK]: schema[GVK] } : {}) };
  return reduce(schema);
}
