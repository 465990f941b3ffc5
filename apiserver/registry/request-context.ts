import type { UserInfo } from '../authentication/interfaces.js';

/** What the generic store needs to know about the request it serves. */
export interface RequestContext {
  /** The request's namespace ('' for cluster-scoped resources and all-namespace lists). */
  namespace: string;
  user: UserInfo;
  dryRun: boolean;
  /** One clock reading per request. */
  now: Date;
}

/** RFC 3339 with second precision, as metav1.Time serializes. */
export function timestamp(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
