import * as status from '../../api/status.js';
import { OBJECT_CONTENT_TYPES, decodeObject, parseDocument, parseFieldValidation, readBody, requireContentType } from '../body.js';
import type { RequestScope } from './scope.js';
import { respond } from './scope.js';

/** POST: decode, create, 201 with the stored object (also for dryRun). */
export async function handleCreate(s: RequestScope): Promise<void> {
  if (s.info.name) throw status.methodNotAllowed();
  const type = requireContentType(s.req, OBJECT_CONTENT_TYPES);
  const validation = parseFieldValidation(s.query.get('fieldValidation'));
  const raw = await readBody(s.req, s.api.maxRequestBytes);
  const body = parseDocument(raw, type);
  const { object, warnings } = decodeObject(body.value, s.def, s.api.definitions, validation, body.duplicateFields);
  s.warnings.push(...warnings);
  const created = await s.store.create(s.ctx, object);
  respond(s, 201, created);
}
