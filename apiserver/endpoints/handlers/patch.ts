/** PATCH: JSON patch, merge patch, strategic merge patch and apply, re-validated like an update. */
import type { ApiObject } from '../../api/object.js';
import * as status from '../../api/status.js';
import { applyJsonPatch, PatchError } from '../../patch/json-patch.js';
import { applyMergePatch } from '../../patch/merge-patch.js';
import { applyStrategicMergePatch } from '../../patch/strategic-merge-patch.js';
import { newPatchSchemaFromDefinitions } from '../../patch/patch-meta-from-schema.js';
import { APPLY_PATCH_TYPE, applyPatch } from '../../patch/apply.js';
import { keepAppliedFields, newRequestFieldManager, trackUpdate } from '../../fieldmanager/request-field-manager.js';
import { parseFieldManagerOptions } from './write-options.js';
import { decodeObject, parseDocument, parseFieldValidation, readBody } from '../body.js';
import { mediaType } from '../negotiation.js';
import { checkViewShape, renderAnswer } from './render-view.js';
import type { RequestScope } from './scope.js';
import { respond } from './scope.js';

const STRATEGIC_MERGE_PATCH_TYPE = 'application/strategic-merge-patch+json';

export const PATCH_CONTENT_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  STRATEGIC_MERGE_PATCH_TYPE,
  APPLY_PATCH_TYPE,
];

function patchError(s: RequestScope, err: unknown): unknown {
  if (!(err instanceof PatchError)) return err;
  if (err.kind === 'bad-request') return status.badRequest(err.message);
  // More operations than a JSON patch may have: Kubernetes' 413.
  if (err.kind === 'too-large') return status.entityTooLarge(err.message);
  return status.invalid({ group: s.def.group, kind: s.def.kind }, s.info.name, [
    { type: 'FieldValueInvalid', field: '', badValue: undefined, detail: err.message },
  ]);
}

export async function handlePatch(s: RequestScope): Promise<void> {
  const type = mediaType(s.req.headers['content-type']);
  // Custom resources have no strategic merge patch (Kubernetes answers 415 for them).
  const accepted = s.def.unstructured ? PATCH_CONTENT_TYPES.filter((t) => t !== STRATEGIC_MERGE_PATCH_TYPE) : PATCH_CONTENT_TYPES;
  if (!accepted.includes(type)) throw status.unsupportedMediaType(accepted);
  const isApply = type === APPLY_PATCH_TYPE;
  const { manager, force } = parseFieldManagerOptions(
    s.query,
    s.req.headers['user-agent'],
    s.api.table.domain.metaGroup,
    'PatchOptions',
    isApply,
  );
  checkViewShape(s, false);
  const validation = parseFieldValidation(s.query.get('fieldValidation'));
  const raw = await readBody(s.req, s.api.maxRequestBytes);
  const { value: patch, duplicateFields, yamlDuplicates = [] } = parseDocument(raw, isApply ? type : 'application/json');
  const fm = newRequestFieldManager(s.store, s.api.definitions, s.ctx, s.info.subresource);
  if (isApply) {
    // Apply creates a missing object (201) and needs no prior read; a resourceVersion it sends is a precondition.
    let applied: ApiObject | undefined;
    const { object, created } = await s.store.update(
      s.ctx,
      s.info.name,
      (old) => {
        const r = applyPatch(fm, old, patch, { name: s.info.name, manager, force, validation, yamlDuplicates });
        s.warnings.splice(0, s.warnings.length, ...r.warnings);
        return (applied = r.object);
      },
      { subresource: s.info.subresource, allowCreate: true, trackFields: keepAppliedFields(() => applied!) },
    );
    respond(s, created ? 201 : 200, renderAnswer(s, object));
    return;
  }

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
    { subresource: s.info.subresource, trackFields: trackUpdate(fm, manager) },
  );
  respond(s, 200, renderAnswer(s, object));
}
