/**
 * Combines authenticators the way kube-apiserver does: they are asked in order and the first
 * that recognises the request wins; a rejected credential does not stop the search (another
 * authenticator may accept another credential on the same request), but it is never downgraded to
 * anonymous access; authenticated users get the system:authenticated group.
 */
import {
  ALL_AUTHENTICATED_GROUP,
  ALL_UNAUTHENTICATED_GROUP,
  ANONYMOUS_USER,
  AuthenticationError,
  type RequestAuthenticator,
  type TokenAuthenticator,
  type UserInfo,
} from './interfaces.js';

/**
 * AuthenticatedGroupAdder: the user with system:authenticated added, unless it is anonymous or already
 * in system:authenticated or system:unauthenticated. Requests and TokenReviews both see users so.
 */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === ANONYMOUS_USER) return user;
  if (user.groups.includes(ALL_AUTHENTICATED_GROUP) || user.groups.includes(ALL_UNAUTHENTICATED_GROUP)) return user;
  return { ...user, groups: [...user.groups, ALL_AUTHENTICATED_GROUP] };
}

/** One authenticator made of `authenticators`, asked in order. */
export function newUnionAuthenticator(authenticators: RequestAuthenticator[]): RequestAuthenticator {
  return {
    async authenticate(req) {
      const errors: string[] = [];
      for (const authenticator of authenticators) {
        let user: UserInfo | null;
        try {
          user = await authenticator.authenticate(req);
        } catch (err) {
          if (!(err instanceof AuthenticationError)) throw err;
          errors.push(err.message);
          continue;
        }
        if (!user) continue;
        const anonymous = user.groups.includes(ALL_UNAUTHENTICATED_GROUP);
        if (anonymous && errors.length > 0) break;
        return withAuthenticatedGroup(user);
      }
      if (errors.length > 0) throw new AuthenticationError(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
      return null;
    },
  };
}

/** One token authenticator made of `authenticators`, asked in order: the first that accepts the token wins. */
export function newUnionTokenAuthenticator(authenticators: TokenAuthenticator[]): TokenAuthenticator {
  return {
    async authenticateToken(token, audiences) {
      const errors: string[] = [];
      for (const authenticator of authenticators) {
        let user: UserInfo | null;
        try {
          user = await authenticator.authenticateToken(token, audiences);
        } catch (err) {
          if (!(err instanceof AuthenticationError)) throw err;
          errors.push(err.message);
          continue;
        }
        if (user) return user;
      }
      if (errors.length > 0) throw new AuthenticationError(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
      return null;
    },
  };
}
