/** PATCH: JSON patch, merge patch and strategic merge patch, re-validated like an update. */
import type { ApiObject } from '../../api/object.js';
import * as status from '../../api/status.js';
import { applyJsonPatch, PatchError } from '../../patch/json-patch.js';
import { applyMergePatch } from '../../patch/merge-patch.js';
import { applyStrategicMergePatch } from '../../patch/strategic-merge-patch.js';
import { newPatchSchemaFromDefinitions } from '../../patch/patch-meta-from-schema.js';
import { decodeObject, parseDocument, parseFieldValidation, readBody } from '../body.js';
import { mediaType } from '../negotiation.js';
import type { RequestScope } from './scope.js';
import { respond } from './scope.js';

export const PATCH_CONTENT_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];

function patchError(s: RequestScope, err: unknown): unknown {
  if (!(err instanceof PatchError)) return err;
  if (err.kind === 'bad-request') return status.badRequest(err.message);
  return status.invalid({ group: s.def.group, kind: s.def.kind }, s.info.name, [
    { type: 'FieldValueInvalid', field: '', badValue: undefined, detail: err.message },
  ]);
}

export async function handlePatch(s: RequestScope): Promise<void> {
  const type = mediaType(s.req.headers['content-type']);
  if (!PATCH_CONTENT_TYPES.includes(type)) throw status.unsupportedMediaType(type, PATCH_CONTENT_TYPES);
  const validation = parseFieldValidation(s.query.get('fieldValidation'));
  const raw = await readBody(s.req, s.api.maxRequestBytes);
  const { value: patch, duplicateFields } = parseDocument(raw, 'application/json');

  const apply = (old: ApiObject): unknown => {
    try {
      switch (type) {
        case 'application/json-patch+json':
          return applyJsonPatch(old, patch);
        case 'application/merge-patch+json':
          return applyMergePatch(old, patch);
        default:
          return applyStrategicMergePatch(old, patch, newPatchSchemaFromDefinitions(s.api.definitions, s.def.schemaRef));
      }
    } catch (err) {
      throw patchError(s, err);
    }
  };

  const { object } = await s.store.update(
    s.ctx,
    s.info.name,
    (old) => {
      if (!old) throw status.notFound(s.store.groupResource, s.info.name);
      const decoded = decodeObject(apply(old), s.def, s.api.definitions, validation, duplicateFields);
      s.warnings.splice(0, s.warnings.length, ...decoded.warnings);
      return decoded.object;
    },
    { subresource: s.info.subresource },
  );
  respond(s, 200, object);
}
