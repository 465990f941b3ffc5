/**
 * application/apply-patch+yaml (server-side apply) as a patch type: the body, one YAML or JSON
 * document, is the applier's full intent for the fields it manages; the field manager merges it into
 * the live object (or an empty one, to create it). Keys given twice are reported as fieldValidation
 * says, after the apply, as Kubernetes does.
 */
import type { ApiObject } from '../api/object.js';
import { isPlainObject } from '../api/object.js';
import * as status from '../api/status.js';
import type { FieldValidation } from '../api/schema-check.js';
import type { FieldManager } from '../fieldmanager/field-manager.js';
import { yamlUnmarshalErrors } from '../api/duplicate-fields.js';

export const APPLY_PATCH_TYPE = 'application/apply-patch+yaml';

export interface ApplyOptions {
  /** The name in the URL, which the applied object must have. */
  name: string;
  manager: string;
  force: boolean;
  validation: FieldValidation;
  /** Keys the body held twice, as yaml.v2 words them (`line 9: key "foo" already set in map`). */
  yamlDuplicates: string[];
}

export interface AppliedObject {
  object: ApiObject;
  /** Warnings for the response. */
  warnings: string[];
}

/** Go's name of a JSON value's type, as its decoding error names it. */
function jsonTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** The object the applier's configuration makes of `live` (null: the object is created). */
export function applyPatch(fm: FieldManager, live: ApiObject | null, body: unknown, o: ApplyOptions): AppliedObject {
  if (!isPlainObject(body)) {
    throw status.badRequest(
      `error decoding YAML: json: cannot unmarshal ${jsonTypeName(body)} into Go value of type map[string]interface {}`,
    );
  }
  // `metadata: null` is no metadata, as every other write decodes it (the merge dropped the live metadata with it).
  if (body.metadata === null) delete body.metadata;
  const object = fm.apply(live, body as ApiObject, o.manager, o.force);
  // Kubernetes decodes the body once more with sigs.k8s.io/yaml's UnmarshalStrict, whose error wraps yaml.v2's.
  const duplicates = o.yamlDuplicates;
  if (o.validation === 'Strict' && duplicates.length) {
    throw status.badRequest(`error strict decoding YAML: error converting YAML to JSON: ${yamlUnmarshalErrors(duplicates)}`);
  }
  // Kubernetes' checkName: the name is not taken from the URL (a configuration without one creates
  // nothing, and one whose metadata the merge pruned is refused); a different name is refused by the store.
  const name = object.metadata.name;
  if (typeof name !== 'string' || name === '')
    throw status.badRequest(`the name of the object (${o.name} based on URL) was undeterminable: name must be provided`);
  return { object, warnings: o.validation === 'Warn' ? duplicates : [] };
}
