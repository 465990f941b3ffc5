/**
 * POST of an action (registry/generic/actions.ts): pods/binding and the legacy `bindings` collection (Binding),
 * pods/eviction (Eviction). The body is decoded as the action's kind; the registry acts and answers.
 */
import type { SubresourceKind } from '../../api/strategy.js';
import * as status from '../../api/status.js';
import {
  OBJECT_CONTENT_TYPES,
  decodeObject,
  parseFieldValidation,
  parseObjectBody,
  readBody,
  requireContentType,
  type DecodableKind,
} from '../body.js';
import type { RequestScope } from './scope.js';
import { respond } from './scope.js';

function bodyKind(kind: SubresourceKind): DecodableKind {
  const apiVersion = kind.group ? `${kind.group}/${kind.version}` : kind.version;
  return { kind: kind.kind, version: kind.version, apiVersion, schemaRef: { $ref: `#/definitions/${kind.schema}` } };
}

/** `kind` is the body's kind; a collection POST (no subresource) acts on the object its body names. */
export async function handleAction(s: RequestScope, kind: SubresourceKind): Promise<void> {
  const type = requireContentType(s.req, OBJECT_CONTENT_TYPES);
  const validation = parseFieldValidation(s.query.get('fieldValidation'));
  const decodable = bodyKind(kind);
  const body = parseObjectBody(await readBody(s.req, s.api.maxRequestBytes), type, s.api.protobuf, decodable);
  const { object, warnings } = decodeObject(
    body.value,
    decodable,
    s.api.definitions,
    validation,
    body.duplicateFields,
    body.unknownFields,
    body.yamlDuplicates,
  );
  // Typed, as admission sees it (a Binding, an Eviction), whether or not the client named its kind.
  object.apiVersion = decodable.apiVersion;
  object.kind = decodable.kind;
  s.warnings.push(...warnings);
  const bodyNamespace = object.metadata.namespace;
  if (bodyNamespace && bodyNamespace !== s.ctx.namespace) {
    throw status.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const name = s.info.subresource ? s.info.name : (object.metadata.name ?? '');
  const { code, object: answer } = await s.store.act(s.ctx, s.info.subresource, name, object);
  respond(s, code, answer);
}
