/**
 * Builds the authorizer kube-apiserver style: the privileged-group authorizer first, then one
 * authorizer per --authorization-mode, in the order given.
 */
import { newAlwaysAllowAuthorizer } from './always-allow.js';
import { newAlwaysDenyAuthorizer } from './always-deny.js';
import type { AuthorizationMode, Authorizer } from './interfaces.js';
import { newPrivilegedGroupsAuthorizer } from './privileged-groups.js';
import { newUnionAuthorizer } from './union.js';

const BUILDERS: Record<AuthorizationMode, () => Authorizer> = {
  AlwaysAllow: newAlwaysAllowAuthorizer,
  AlwaysDeny: newAlwaysDenyAuthorizer,
};

/** The request authorizer for the given modes. */
export function newAuthorizer(modes: AuthorizationMode[]): Authorizer {
  return newUnionAuthorizer([newPrivilegedGroupsAuthorizer(), ...modes.map((m) => BUILDERS[m]())]);
}
