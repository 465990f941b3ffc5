/**
 * POST to a kind or subresource that is never stored (TokenReview, SelfSubjectReview,
 * serviceaccounts/token): decode the body as its kind, let the server's handler compute the answer,
 * 201 with it. The handlers live in the layers that know the answer (authentication/, authorization/reviews/).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiObject } from '../../api/object.js';
import type { UserInfo } from '../../authentication/interfaces.js';
import {
  OBJECT_CONTENT_TYPES,
  decodeObject,
  parseDocument,
  parseFieldValidation,
  readBody,
  requireContentType,
  type DecodableKind,
} from '../body.js';
import type { Output } from '../negotiation.js';
import { writeObject } from '../responses.js';
import type { ApiContext } from './scope.js';

/** What an ephemeral handler is given. */
export interface EphemeralRequest {
  /** The request's namespace ('' for cluster-scoped kinds). */
  namespace: string;
  /** The parent object's name for a subresource, else ''. */
  name: string;
  user: UserInfo;
  dryRun: boolean;
  /** The decoded body, of the served kind and version. */
  object: ApiObject;
  /** The served apiVersion of the body (authentication.orch.io/v1, …). */
  apiVersion: string;
}

/** Computes the answer object (its apiVersion and kind are set by the endpoint). */
export type EphemeralHandler = (r: EphemeralRequest) => Promise<ApiObject>;

/** The key of an ephemeral handler: "<group>/<plural>" or "<group>/<plural>/<subresource>". */
export function ephemeralKey(group: string, plural: string, subresource = ''): string {
  return subresource ? `${group}/${plural}/${subresource}` : `${group}/${plural}`;
}

export interface EphemeralCall {
  api: ApiContext;
  handler: EphemeralHandler;
  kind: DecodableKind;
  req: IncomingMessage;
  res: ServerResponse;
  query: URLSearchParams;
  output: Output;
  pretty: boolean;
  request: Omit<EphemeralRequest, 'object' | 'apiVersion'>;
}

export async function handleEphemeralCreate(c: EphemeralCall): Promise<void> {
  const type = requireContentType(c.req, OBJECT_CONTENT_TYPES);
  const validation = parseFieldValidation(c.query.get('fieldValidation'));
  const body = parseDocument(await readBody(c.req, c.api.maxRequestBytes), type);
  const { object, warnings } = decodeObject(body.value, c.kind, c.api.definitions, validation, body.duplicateFields);
  const answer = await c.handler({ ...c.request, object, apiVersion: c.kind.apiVersion });
  const out = { apiVersion: c.kind.apiVersion, kind: c.kind.kind, ...answer };
  out.apiVersion = c.kind.apiVersion;
  out.kind = c.kind.kind;
  writeObject(c.res, 201, out, { encoding: c.output.encoding, pretty: c.pretty, warnings });
}
