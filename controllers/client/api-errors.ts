/**
 * Failed responses as the API's own error type (ApiError with a Status), so callers test them with
 * isApiError(err, 'NotFound') exactly as the server code does. A response whose body is not a Status
 * gets one made up from its code, as client-go's NewGenericServerResponse does.
 */
import { ApiError, REASON_CODES, type Status, type StatusReason } from '../../apiserver/api/status.js';
import { isPlainObject } from '../../apiserver/api/object.js';

/** The reason a bare HTTP code stands for (the first reason with that code; 409 is Conflict). */
function reasonForCode(code: number): StatusReason | undefined {
  if (code === 409) return 'Conflict';
  if (code === 410) return 'Gone';
  return Object.keys(REASON_CODES)
    .filter(isStatusReason)
    .find((r) => REASON_CODES[r] === code);
}

function isStatusReason(name: string): name is StatusReason {
  return Object.hasOwn(REASON_CODES, name);
}

/** The error for a non-2xx response with this code and body text. */
export function errorFromResponse(code: number, text: string): ApiError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (isPlainObject(body) && body.kind === 'Status')
    // A JSON object of kind Status is taken as the server's Status (its fields are not checked one by one).
    return new ApiError({ ...(body as unknown as Status), code: typeof body.code === 'number' && body.code ? body.code : code });
  const reason = reasonForCode(code);
  const message = text.trim() || `the server responded with the status code ${code} but did not return more information`;
  return new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

/** A 410: the resourceVersion or continue token is older than the server's history. */
export function isExpired(err: unknown): boolean {
  return err instanceof ApiError && err.code === 410;
}

/** Whether the error's Status names `reason` among its causes (apierrors.HasStatusCause). */
export function hasStatusCause(err: unknown, reason: string): boolean {
  return err instanceof ApiError && (err.status.details?.causes ?? []).some((c) => c.reason === reason);
}

/** The cause reason of a create refused because its namespace is terminating. */
export const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';
