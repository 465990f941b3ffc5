import type { ApiObject } from '../../api/object.js';
import { OBJECT_CONTENT_TYPES, decodeObject, parseFieldValidation, parseObjectBody, readBody, requireContentType } from '../body.js';
import type { RequestScope } from './scope.js';

/**
 * The object a POST or PUT carries: content type checked (415), size limited (413), parsed (400),
 * checked against the kind's schema, with unknown/duplicate fields handled per fieldValidation.
 */
export async function readObjectBody(s: RequestScope): Promise<ApiObject> {
  const type = requireContentType(s.req, OBJECT_CONTENT_TYPES);
  const validation = parseFieldValidation(s.query.get('fieldValidation'));
  const body = parseObjectBody(await readBody(s.req, s.api.maxRequestBytes), type, s.api.protobuf, s.def);
  const { object, warnings } = decodeObject(
    body.value,
    s.def,
    s.api.definitions,
    validation,
    body.duplicateFields,
    body.unknownFields,
    body.yamlDuplicates,
  );
  s.warnings.push(...warnings);
  return object;
}
