/**
 * TokenReview (is this token valid, and whose is it?) and SelfSubjectReview (who am I?), answered
 * from the server's own authenticators; never stored.
 */
import type { ApiObject } from '../api/object.js';
import * as status from '../api/status.js';
import { AuthenticationError, type TokenAuthenticator, type UserInfo } from './interfaces.js';
import { withAuthenticatedGroup } from './union.js';

/** A user as authentication/v1 UserInfo. */
export function userInfoObject(user: UserInfo): Record<string, unknown> {
  const out: Record<string, unknown> = { username: user.name };
  if (user.uid) out.uid = user.uid;
  if (user.groups.length > 0) out.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) out.extra = structuredClone(user.extra);
  return out;
}

/** Answers a TokenReview with what `tokens` say of spec.token for spec.audiences. */
export function newTokenReviewHandler(tokens: TokenAuthenticator) {
  return async (r: { object: ApiObject }): Promise<ApiObject> => {
    const spec = (r.object.spec ?? {}) as { token?: string; audiences?: string[] };
    if (!spec.token) throw status.badRequest('token is required for TokenReview in authentication');
    const audiences = spec.audiences ?? [];
    let review: Record<string, unknown>;
    try {
      const user = await tokens.authenticateToken(spec.token, audiences.length > 0 ? audiences : undefined);
      // As kube-apiserver, which asks its request authenticator: every authenticated user is in system:authenticated.
      review = user
        ? { authenticated: true, user: userInfoObject(withAuthenticatedGroup(user)), ...(audiences.length > 0 ? { audiences } : {}) }
        : { user: {} };
    } catch (err) {
      if (!(err instanceof AuthenticationError)) throw err;
      review = { user: {}, error: err.message };
    }
    return { ...r.object, metadata: { ...r.object.metadata, creationTimestamp: undefined }, status: review } as ApiObject;
  };
}

/** Answers a SelfSubjectReview with the requesting user. */
export async function selfSubjectReview(r: { object: ApiObject; user: UserInfo }): Promise<ApiObject> {
  return { ...r.object, status: { userInfo: userInfoObject(r.user) } } as ApiObject;
}
