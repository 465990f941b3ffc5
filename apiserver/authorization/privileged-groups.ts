/**
 * Members of privileged groups (system:masters) may do anything, whatever the configured modes.
 */
import type { Authorizer } from './interfaces.js';

/** The group whose members are always allowed. */
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';

/** Allows users in any of `groups`; has no opinion about anyone else. */
export function newPrivilegedGroupsAuthorizer(groups: string[] = [SYSTEM_PRIVILEGED_GROUP]): Authorizer {
  return {
    async authorize(a) {
      const privileged = a.user.groups.some((g) => groups.includes(g));
      return { decision: privileged ? 'Allow' : 'NoOpinion', reason: '' };
    },
  };
}
