import { OBJECT_CONTENT_TYPES, decodeObject, parseDocument, parseFieldValidation, readBody, requireContentType } from '../body.js';
import type { RequestScope } from './scope.js';
import { respond } from './scope.js';

/** PUT of an object or a subresource: 200, or 201 when it created the object. */
export async function handleUpdate(s: RequestScope): Promise<void> {
  const type = requireContentType(s.req, OBJECT_CONTENT_TYPES);
  const validation = parseFieldValidation(s.query.get('fieldValidation'));
  const raw = await readBody(s.req, s.api.maxRequestBytes);
  const body = parseDocument(raw, type);
  const { object, warnings } = decodeObject(body.value, s.def, s.api.definitions, validation, body.duplicateFields);
  s.warnings.push(...warnings);
  const { object: stored, created } = await s.store.update(s.ctx, s.info.name, () => object, { subresource: s.info.subresource });
  respond(s, created ? 201 : 200, stored);
}
