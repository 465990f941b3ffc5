/**
 * GET, PUT and PATCH of a subresource served as its own kind (scale → autoscaling/v1 Scale): the
 * request reads and writes the view; the store keeps writing the object it is computed from.
 */
import type { ApiObject } from '../../api/object.js';
import type { SubresourceView } from '../../api/strategy.js';
import * as status from '../../api/status.js';
import { applyJsonPatch, PatchError } from '../../patch/json-patch.js';
import { applyMergePatch } from '../../patch/merge-patch.js';
import { applyStrategicMergePatch } from '../../patch/strategic-merge-patch.js';
import { newPatchSchemaFromDefinitions } from '../../patch/patch-meta-from-schema.js';
import {
  OBJECT_CONTENT_TYPES,
  decodeObject,
  parseDocument,
  parseFieldValidation,
  parseObjectBody,
  readBody,
  requireContentType,
  type DecodableKind,
} from '../body.js';
import { mediaType } from '../negotiation.js';
import type { RequestScope } from './scope.js';
import { respond } from './scope.js';

const VIEW_PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'];

function viewKind(view: SubresourceView): DecodableKind {
  const apiVersion = view.group ? `${view.group}/${view.version}` : view.version;
  return { kind: view.kind, version: view.version, apiVersion, schemaRef: { $ref: `#/definitions/${view.schema}` } };
}

function patched(s: RequestScope, view: SubresourceView, type: string, current: ApiObject, patch: unknown): unknown {
  try {
    if (type === 'application/json-patch+json') return applyJsonPatch(current, patch);
    if (type === 'application/merge-patch+json') return applyMergePatch(current, patch);
    return applyStrategicMergePatch(current, patch, newPatchSchemaFromDefinitions(s.api.definitions, viewKind(view).schemaRef));
  } catch (err) {
    if (!(err instanceof PatchError)) throw err;
    if (err.kind === 'bad-request') throw status.badRequest(err.message);
    throw status.invalid({ group: view.group, kind: view.kind }, s.info.name, [
      { type: 'FieldValueInvalid', field: '', detail: err.message },
    ]);
  }
}

export async function handleSubresourceView(s: RequestScope, view: SubresourceView): Promise<void> {
  const verb = s.info.verb;
  if (verb === 'get') {
    respond(s, 200, view.toView(await s.store.get(s.ctx, s.info.name)), { headOnly: s.req.method === 'HEAD' });
    return;
  }
  const kind = viewKind(view);
  const validation = parseFieldValidation(s.query.get('fieldValidation'));
  let type: string;
  if (verb === 'update') type = requireContentType(s.req, OBJECT_CONTENT_TYPES);
  else {
    type = mediaType(s.req.headers['content-type']);
    if (!VIEW_PATCH_TYPES.includes(type)) throw status.unsupportedMediaType(VIEW_PATCH_TYPES);
  }
  const raw = await readBody(s.req, s.api.maxRequestBytes);
  const body = verb === 'update' ? parseObjectBody(raw, type, s.api.protobuf, kind) : parseDocument(raw, 'application/json');
  const { object } = await s.store.update(
    s.ctx,
    s.info.name,
    (old) => {
      if (!old) throw status.notFound(s.store.groupResource, s.info.name);
      const value = verb === 'update' ? body.value : patched(s, view, type, view.toView(old), body.value);
      const decoded = decodeObject(
        value,
        kind,
        s.api.definitions,
        validation,
        body.duplicateFields,
        body.unknownFields,
        body.yamlDuplicates,
      );
      s.warnings.splice(0, s.warnings.length, ...decoded.warnings);
      return view.fromView(decoded.object, old);
    },
    { subresource: s.info.subresource },
  );
  respond(s, 200, view.toView(object));
}
