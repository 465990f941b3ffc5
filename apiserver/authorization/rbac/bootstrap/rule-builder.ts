/** Short forms of policy rules for the default policy (Kubernetes' rbacv1helpers.NewRule). */
import type { PolicyRule } from '../types.js';

export const READ = ['get', 'list', 'watch'];
export const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];
export const READ_WRITE = [...READ, ...WRITE];
export const READ_UPDATE = [...READ, 'update', 'patch'];

/** A resource rule; `names` restricts it to those objects. */
export function rule(verbs: string[], groups: string[], resources: string[], names?: string[]): PolicyRule {
  const r: PolicyRule = { verbs, apiGroups: groups, resources };
  if (names) r.resourceNames = names;
  return r;
}

/** A non-resource URL rule. */
export function urls(verbs: string[], paths: string[]): PolicyRule {
  return { verbs, nonResourceURLs: paths };
}
