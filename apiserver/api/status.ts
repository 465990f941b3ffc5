/**
 * The one error type of the API: a Kubernetes `Status` object, built only by the factories below.
 * Each reason maps to its HTTP code in REASON_CODES, so the compiler proves every reason has one.
 */
import type { FieldError } from './field-errors.js';
import { aggregateMessage, errorBody } from './field-errors.js';

export const REASON_CODES = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  AlreadyExists: 409,
  Conflict: 409,
  Gone: 410,
  Expired: 410,
  RequestEntityTooLarge: 413,
  UnsupportedMediaType: 415,
  Invalid: 422,
  TooManyRequests: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
  Timeout: 504,
} as const satisfies Record<string, number>;

export type StatusReason = keyof typeof REASON_CODES;

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { resourceVersion?: string; continue?: string };
  status: 'Failure' | 'Success';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** A Success Status: no reason, message or code. */
export type SuccessStatus = Pick<Status, 'kind' | 'apiVersion' | 'metadata' | 'details'> & { status: 'Success' };

/** A group + resource, e.g. {group: '', resource: 'configmaps'}. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** A group + kind, e.g. {group: 'apps', kind: 'Deployment'}. */
export interface GroupKind {
  group: string;
  kind: string;
}

export class ApiError extends Error {
  readonly status: Status;
  constructor(status: Status, options?: { cause?: unknown }) {
    super(status.message ?? status.reason ?? 'error', options);
    this.name = 'ApiError';
    this.status = status;
  }
  get code(): number {
    return this.status.code;
  }
  get reason(): StatusReason | undefined {
    return this.status.reason;
  }
}

export function isApiError(err: unknown, reason?: StatusReason): err is ApiError {
  return err instanceof ApiError && (reason === undefined || err.status.reason === reason);
}

function failure(reason: StatusReason, message: string, details?: StatusDetails, cause?: unknown): ApiError {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code: REASON_CODES[reason] };
  if (details) status.details = withoutEmpty(details);
  return new ApiError(status, { cause });
}

/** Details as Kubernetes serializes them: every field is omitempty, so the core group's "" is left out. */
function withoutEmpty(details: StatusDetails): StatusDetails {
  return Object.fromEntries(Object.entries(details).filter(([, v]) => v !== '' && v !== undefined)) as StatusDetails;
}

/** "configmaps" or "deployments.apps", as Kubernetes prints a group resource. */
export function qualifiedResource(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

function qualifiedKind(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

export function notFound(gr: GroupResource, name: string): ApiError {
  return failure('NotFound', `${qualifiedResource(gr)} "${name}" not found`, { name, group: gr.group, kind: gr.resource });
}

export function alreadyExists(gr: GroupResource, name: string): ApiError {
  return failure('AlreadyExists', `${qualifiedResource(gr)} "${name}" already exists`, { name, group: gr.group, kind: gr.resource });
}

/** 409 Conflict: "Operation cannot be fulfilled on <resource> "<name>": <why>". */
export function conflict(gr: GroupResource, name: string, why: string): ApiError {
  return failure('Conflict', `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`, {
    name,
    group: gr.group,
    kind: gr.resource,
  });
}

export const OBJECT_MODIFIED = 'the object has been modified; please apply your changes to the latest version and try again';

/** 422 Invalid with one cause per field error. */
export function invalid(gk: GroupKind, name: string, errors: FieldError[]): ApiError {
  const causes = errors.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field }));
  return failure('Invalid', `${qualifiedKind(gk)} "${name}" is invalid: ${aggregateMessage(errors)}`, {
    name,
    group: gk.group,
    kind: gk.kind,
    causes,
  });
}

/** 403 Forbidden: `<resource> "<name>" is forbidden: <why>`, or `forbidden: <why>` with no resource (a path). */
export function forbidden(gr: GroupResource, name: string, why: string, causes?: StatusCause[]): ApiError {
  const details: StatusDetails = {};
  if (name) details.name = name;
  if (gr.group) details.group = gr.group;
  if (gr.resource) details.kind = gr.resource;
  if (causes) details.causes = causes;
  if (!gr.resource) return failure('Forbidden', `forbidden: ${why}`, details);
  const what = name ? `${qualifiedResource(gr)} "${name}"` : qualifiedResource(gr);
  return failure('Forbidden', `${what} is forbidden: ${why}`, details);
}

export function unauthorized(message = 'Unauthorized'): ApiError {
  return failure('Unauthorized', message);
}

export function badRequest(message: string, causes?: StatusCause[]): ApiError {
  return failure('BadRequest', message, causes ? { causes } : undefined);
}

export function methodNotAllowed(message = 'the server does not allow this method on the requested resource'): ApiError {
  return failure('MethodNotAllowed', message);
}

export function notAcceptable(supported: string[]): ApiError {
  return notAcceptableView(`only the following media types are accepted: ${supported.join(', ')}`);
}

/** A 406 for a view the answer cannot take (PartialObjectMetadata of a list, and the reverse). */
export function notAcceptableView(message: string): ApiError {
  return failure('NotAcceptable', message);
}

export function unsupportedMediaType(supported: string[]): ApiError {
  return failure(
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${supported.join(', ')}`,
  );
}

export function requestEntityTooLarge(limit: number): ApiError {
  return entityTooLarge(`limit is ${limit}`);
}

/** Kubernetes' NewRequestEntityTooLargeError: a 413 `Request entity too large: <why>`. */
export function entityTooLarge(why: string): ApiError {
  return failure('RequestEntityTooLarge', `Request entity too large: ${why}`);
}

/** 410 Expired: a resourceVersion or continue token older than the store's history. */
export function expired(message: string): ApiError {
  return failure('Expired', message);
}

/** 410 Gone, used in watch ERROR events for a compacted start revision. */
export function gone(message: string): ApiError {
  return failure('Gone', message);
}

export function tooManyRequests(message: string, retryAfterSeconds: number): ApiError {
  return failure('TooManyRequests', message, { retryAfterSeconds });
}

export function timeout(message: string, retryAfterSeconds?: number, causes?: StatusCause[]): ApiError {
  const details: StatusDetails = {};
  if (retryAfterSeconds !== undefined) details.retryAfterSeconds = retryAfterSeconds;
  if (causes) details.causes = causes;
  return failure('Timeout', message, Object.keys(details).length ? details : undefined);
}

/** 504: the requested resourceVersion is ahead of anything the store has seen. */
export function tooLargeResourceVersion(requested: number, current: number, retryAfterSeconds = 1): ApiError {
  return timeout(`Too large resource version: ${requested}, current: ${current}`, retryAfterSeconds, [
    { reason: 'ResourceVersionTooLarge', message: 'Too large resource version' },
  ]);
}

/** 503; with `retryAfterSeconds`, clients are told when to try again (a Retry-After header). */
export function serviceUnavailable(message: string, retryAfterSeconds?: number): ApiError {
  return failure('ServiceUnavailable', message, retryAfterSeconds === undefined ? undefined : { retryAfterSeconds });
}

export function internal(err: unknown): ApiError {
  const message = err instanceof Error ? err.message : String(err);
  return failure('InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }, err);
}

/**
 * 500 with no reason (Kubernetes' StatusReasonUnknown, omitted) and the message as it is: how Kubernetes
 * answers an error that is no API error, such as a conversion webhook's failure.
 */
export function unknownError(message: string): ApiError {
  return new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

/** A Status with status: Success (delete of a kind that does not return the object). */
/** The Status a DELETE answers when the object is gone: no code (Kubernetes leaves it 0, omitted). */
export function success(details: StatusDetails): SuccessStatus {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: withoutEmpty(details) };
}
